// Package apicheck holds tests that guard the shape of warplab's public
// API across the module: no exported declaration of a package outside
// internal/ mentions a type from an internal package, and no such package
// exports a variable a caller could change, other than error values.
//
// The checks read the source (go/parser), so they run in milliseconds and
// need no build; they see what a reader of `go doc` sees.
package apicheck
