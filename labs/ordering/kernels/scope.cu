// scope.cu: one counter that every block adds to, at two scopes.
//
// Each of the grid's threads adds 1 to *counter adds times. atomicAdd is
// device scope: every thread of the GPU is in it, and no update is lost.
// atomicAdd_block is block scope: it is atomic only with respect to the
// threads of its own block, so PTX lets two blocks' updates of one address
// overwrite each other (an L2 performs both on today's GPUs: allowed, not
// promised). Use it where only the block's threads touch the address.

__global__ void countDevice(int* counter, int adds) {
    for (int i = 0; i < adds; ++i) atomicAdd(counter, 1);
}

__global__ void countBlock(int* counter, int adds) {
    for (int i = 0; i < adds; ++i) atomicAdd_block(counter, 1);
}
