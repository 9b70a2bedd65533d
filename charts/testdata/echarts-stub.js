/* Stand-in for the echarts library in charts tests: the real one is fetched by scripts/setup.sh. */
