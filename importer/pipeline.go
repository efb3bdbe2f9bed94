package importer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// Batching of JSONL lines for the decoding workers.
const (
	batchLines = 512
	batchBytes = 2 << 20
)

type lineBatch struct {
	seq   int
	nums  []int    // line numbers
	lines [][]byte // copies of the lines; nil when errs[i] is set
	vals  []any
	errs  []error
	ioErr error // a read error after the batch's lines
}

// forEachLine reads JSONL through a bufio.Reader, decodes lines on worker
// goroutines with decode (which must not touch shared state), and hands each
// result to apply in line order, on the calling goroutine. Blank lines are
// skipped. A line over max bytes reaches apply with an error wrapping
// errLineTooLong. At most a few batches are in flight, so memory stays
// bounded by the batch size and the longest line.
func forEachLine(br *bufio.Reader, max int, decode func([]byte) (any, error), apply func(line int, v any, err error) error) error {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *lineBatch)
	results := make(chan *lineBatch)
	slots := make(chan struct{}, 2*workers+2)
	quit := make(chan struct{})
	var wg sync.WaitGroup

	go func() { // reader
		defer close(jobs)
		lr := newLineReader(br, max)
		seq := 0
		b := &lineBatch{}
		size := 0
		send := func() bool {
			select {
			case slots <- struct{}{}:
			case <-quit:
				return false
			}
			b.seq = seq
			seq++
			select {
			case jobs <- b:
			case <-quit:
				return false
			}
			b, size = &lineBatch{}, 0
			return true
		}
		for {
			line, err := lr.next()
			if err == io.EOF {
				send()
				return
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				b.ioErr = fmt.Errorf("reading input: %w", err)
				send()
				return
			}
			if err == nil && len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			b.nums = append(b.nums, lr.line)
			if err != nil {
				b.lines = append(b.lines, nil)
				b.errs = append(b.errs, err)
			} else {
				b.lines = append(b.lines, append([]byte(nil), line...))
				b.errs = append(b.errs, nil)
				size += len(line)
			}
			if len(b.nums) >= batchLines || size >= batchBytes {
				if !send() {
					return
				}
			}
		}
	}()

	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				b.vals = make([]any, len(b.lines))
				for i, line := range b.lines {
					if b.errs[i] == nil {
						b.vals[i], b.errs[i] = decode(line)
					}
					b.lines[i] = nil
				}
				select {
				case results <- b:
				case <-quit:
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	stop := func() {
		close(quit)
		for range results {
		}
	}
	pending := map[int]*lineBatch{}
	next := 0
	for b := range results {
		pending[b.seq] = b
		for {
			cur, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			for i, n := range cur.nums {
				if err := apply(n, cur.vals[i], cur.errs[i]); err != nil {
					stop()
					return err
				}
			}
			if cur.ioErr != nil {
				stop()
				return cur.ioErr
			}
			<-slots
		}
	}
	return nil
}
