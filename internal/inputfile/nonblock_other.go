//go:build !unix

package inputfile

// nonblock is 0 where opening cannot be made non-blocking: the check before
// the open is all there is.
const nonblock = 0
