package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// walkObject reads the members of an object whose '{' was read, calling
// handle with each key; handle must consume the value (with skipMember,
// dec.Decode or streamArray). It reads the closing '}'.
func walkObject(dec *json.Decoder, handle func(key string) error) error {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
		}
		key, _ := tok.(string)
		if err := handle(key); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	return nil
}

// skipMember consumes one value.
func skipMember(dec *json.Decoder) error {
	var skip json.RawMessage
	if err := dec.Decode(&skip); err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	return nil
}

// streamArray reads an array value one element at a time; a value that is
// not an array is an error naming what.
func streamArray(dec *json.Decoder, what string, each func(i int, raw json.RawMessage) error) error {
	tok, err := dec.Token()
	if err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		if d == '{' {
			skipValue(dec)
		}
		return inputErrorf(0, "at byte %d: %s is not an array", dec.InputOffset(), what)
	}
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return inputErrorf(0, "%s[%d] at byte %d: %v", what, i, dec.InputOffset(), err)
		}
		if err := each(i, raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	return nil
}

// skipItem turns an error about one item into a warning (or, under Strict,
// an input error): one unreadable message or event never loses the rest.
func (b *builder) skipItem(what string, i int, err error) error {
	var ie *InputError
	if errors.As(err, &ie) || b.opts.Strict {
		return inputErrorf(0, "%s %d: %v", what, i, err)
	}
	b.malformed++
	if b.malformedListed < 10 {
		b.malformedListed++
		b.warns = append(b.warns, fmt.Sprintf("%s %d: unreadable, skipped: %v", what, i, shorten(err.Error(), 160)))
	}
	return nil
}

// peekStart returns the first non-blank byte of the input, without
// consuming it.
func peekStart(br *bufio.Reader) (byte, []byte, error) {
	head, err := br.Peek(peekSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return 0, nil, fmt.Errorf("reading input: %w", err)
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 {
		return 0, nil, inputErrorf(0, "the input is empty")
	}
	return t[0], head, nil
}

// streamInto is streamArray decoding each element straight into a new T: one
// pass over its bytes, with no copy and no second validation. An element
// of the wrong type (a string where an object belongs) reaches each with
// its *json.UnmarshalTypeError, and the stream goes on (the decoder has
// read the whole element before decoding it); a syntax error ends it.
func streamInto[T any](dec *json.Decoder, what string, each func(i int, v *T, err error) error) error {
	tok, err := dec.Token()
	if err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		if d == '{' {
			skipValue(dec)
		}
		return inputErrorf(0, "at byte %d: %s is not an array", dec.InputOffset(), what)
	}
	for i := 0; dec.More(); i++ {
		v := new(T)
		err := dec.Decode(v)
		var ute *json.UnmarshalTypeError
		if err != nil && !errors.As(err, &ute) {
			return inputErrorf(0, "%s[%d] at byte %d: %v", what, i, dec.InputOffset(), err)
		}
		if err := each(i, v, err); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	return nil
}
