package result

import (
	"bytes"
	"encoding/json"
	"sync"
)

// MarshalUnit encodes u as one line of a run's journal (journal.jsonl):
// compact JSON, with <, > and & left as they are, ending in a newline. The
// units of a result file are these lines (WriteJSON writes each without its
// newline), so a result can be assembled from journal lines byte for byte.
func MarshalUnit(u *Unit) ([]byte, error) {
	return AppendUnit(nil, u)
}

// AppendUnit appends MarshalUnit's line for u to dst: a journal writing a
// batch of units builds its write in one buffer, without a copy per unit.
func AppendUnit(dst []byte, u *Unit) ([]byte, error) {
	e := encoders.Get().(*unitEncoder)
	defer func() {
		if e.buf.Cap() <= maxPooledLine {
			encoders.Put(e)
		}
	}()
	line, err := e.encode(u)
	if err != nil {
		return dst, err
	}
	return append(dst, line...), nil
}

// encoders are the unitEncoders AppendUnit reuses; one whose buffer grew
// past maxPooledLine (a unit with huge summaries) is let go.
var encoders = sync.Pool{New: func() any { return new(unitEncoder) }}

const maxPooledLine = 1 << 20

// UnmarshalUnit decodes one journal line (as MarshalUnit wrote it). It is
// lenient as encoding/json is: unknown fields are ignored, and nothing is
// validated; Decode is the strict reader of a whole result.
func UnmarshalUnit(line []byte) (*Unit, error) {
	var u Unit
	if err := json.Unmarshal(line, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// unitEncoder encodes units one after another into one reused buffer.
type unitEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// encode returns u's line; it is valid until the next call.
func (e *unitEncoder) encode(u *Unit) ([]byte, error) {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	e.buf.Reset()
	if err := e.enc.Encode(u); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}
