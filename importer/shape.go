package importer

import (
	"bytes"
	"encoding/json"
	"strings"
)

// shape is what detection learns from the start of a JSON document without
// decoding it whole (it may be cut at the peek limit): for each path, with
// array indexes written "*", the keys of the first object found there, each
// with a short description of its value (a short string's value, or "{",
// "[", "#" for numbers, "b" for booleans, "-" for null and long strings).
type shape map[string]map[string]string

// maxShapeTokens bounds the walk.
const maxShapeTokens = 200000

// shapeOf walks the JSON tokens of b (a document or its start).
func shapeOf(b []byte) shape {
	sh := shape{}
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		path   string
		object bool
		key    string // the key whose value comes next (objects)
		record bool   // this object is the first at its path
	}
	var stack []frame
	valuePath := func() string {
		if len(stack) == 0 {
			return ""
		}
		top := stack[len(stack)-1]
		if top.object {
			return top.path + "/" + top.key
		}
		return top.path + "/*"
	}
	note := func(v string) {
		if len(stack) == 0 {
			return
		}
		top := &stack[len(stack)-1]
		if top.object && top.record {
			if _, ok := sh[top.path][top.key]; !ok {
				sh[top.path][top.key] = v
			}
		}
	}
	for n := 0; n < maxShapeTokens; n++ {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		// In an object, a string token in key position is a key.
		if len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].key == "" {
			if k, ok := tok.(string); ok {
				stack[len(stack)-1].key = k
				continue
			}
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				p := valuePath()
				note(string(v))
				f := frame{path: p, object: v == '{'}
				if f.object {
					if _, seen := sh[p]; !seen {
						sh[p] = map[string]string{}
						f.record = true
					}
				}
				stack = append(stack, f)
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if len(v) <= 64 {
				note(v)
			} else {
				note("-")
			}
		case nil:
			note("-")
		case bool:
			note("b")
		default:
			note("#")
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = ""
		}
	}
	return sh
}

// chatRoles are the roles of chat messages (OpenAI and Anthropic).
var chatRoles = map[string]bool{"user": true, "assistant": true, "system": true, "tool": true, "developer": true, "function": true, "model": true, "human": true, "ai": true}

// messagesPaths returns the paths whose first element is a chat message,
// shortest first; array indexes are written "*".
func (sh shape) messagesPaths() []string {
	var out []string
	for p, keys := range sh {
		if !strings.HasSuffix(p, "/*") {
			continue
		}
		if chatRoles[keys["role"]] {
			_, content := keys["content"]
			_, text := keys["text"]
			if content || text || keys["tool_calls"] == "[" || keys["role"] == "assistant" {
				out = append(out, strings.TrimSuffix(p, "/*"))
			}
		}
	}
	sortByLength(out)
	return out
}

func sortByLength(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (len(s[j]) < len(s[j-1]) || len(s[j]) == len(s[j-1]) && s[j] < s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// isOHEvent reports whether keys look like an OpenHands event.
func isOHEvent(keys map[string]string) bool {
	if keys == nil {
		return false
	}
	if ohKinds[keys["kind"]] {
		return true
	}
	_, src := keys["source"]
	_, act := keys["action"]
	_, obs := keys["observation"]
	return src && (act || obs)
}

// isSWEHistory reports whether keys look like a SWE-agent history item or
// trajectory step.
func isSWEHistory(keys map[string]string) bool {
	if keys == nil {
		return false
	}
	if _, ok := keys["message_type"]; ok {
		return true
	}
	_, a := keys["action"]
	_, o := keys["observation"]
	_, t := keys["thought"]
	_, src := keys["source"]
	return a && o && t && !src
}
