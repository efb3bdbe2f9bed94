package suggest

import (
	"encoding/json"
	"sort"
	"strings"
)

// argsText is a call's arguments as the path rules read them: each member
// on a line of its own as "key": value, string values decoded (an escaped
// \n is a line break, not an n glued onto the next path; arguments encoded
// twice, as a string of JSON, are decoded twice). Arguments that are not
// JSON are returned as they are.
func argsText(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw // nothing escaped: the raw form reads the same
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return raw
	}
	var b strings.Builder
	writeArgs(&b, v, 0)
	return b.String()
}

func writeArgs(b *strings.Builder, v any, depth int) {
	if depth > 8 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			b.WriteString(`"` + k + `": `)
			writeArgs(b, v[k], depth+1)
			b.WriteByte('\n')
		}
	case []any:
		for _, e := range v {
			writeArgs(b, e, depth+1)
			b.WriteByte('\n')
		}
	case string:
		if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			var inner any
			if json.Unmarshal([]byte(t), &inner) == nil {
				writeArgs(b, inner, depth+1)
				return
			}
		}
		b.WriteString(v)
	default:
		if data, err := json.Marshal(v); err == nil {
			b.Write(data)
		}
	}
}
