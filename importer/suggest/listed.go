package suggest

import (
	"regexp"
	"strings"
)

// A request over a set a tool listed, done for part of it: "downgrade all
// my flights", the profile lists six reservations, the calls after the
// request touch three and change two. The request is carried out by its
// object's word for the ones the calls touched; the others, never passed
// to any call, were never looked at, and a summary that reports the
// request done closes it for them too. The set is a JSON array of two ids
// or more in a tool's result; the request says it means every one ("all",
// "every", "each", "todos", "todas", "cada").

// listRE is a JSON array of strings.
var listRE = regexp.MustCompile(`\[\s*"[^"\[\]{}]{1,64}"(?:\s*,\s*"[^"\[\]{}]{1,64}")+\s*\]`)

// Bounds of the listed-set state.
const (
	maxSets    = 8
	maxSetIDs  = 16
	maxLeftIDs = 6 // ids a suggestion names
)

// allWords say a request means every member of its object.
var allWords = map[string]bool{"all": true, "every": true, "each": true}

// listedSet is a set of ids a tool result listed, with the index of the
// first call after which each was passed (-1: never).
type listedSet struct {
	idx     int
	ids     []string
	touched []int
}

// setSight remembers the sets of ids a tool result lists.
func (s *Scanner) setSight(idx int, text string) {
	t := strings.TrimSpace(text)
	if t == "" || t[0] != '{' && t[0] != '[' || len(s.sets) >= maxSets {
		return
	}
	if len(t) > maxScanChars {
		t = t[:maxScanChars]
	}
	for _, l := range listRE.FindAllString(t, maxSets) {
		var ids []string
		for _, w := range strings.Split(strings.Trim(l, "[] \t\n"), ",") {
			w = strings.Trim(strings.TrimSpace(w), `"`)
			if isIDWord(w) && !inList(ids, w) && len(ids) < maxSetIDs {
				ids = append(ids, w)
			}
		}
		if len(ids) < 2 || len(s.sets) >= maxSets {
			continue
		}
		touched := make([]int, len(ids))
		for i := range touched {
			touched[i] = -1
		}
		s.sets = append(s.sets, listedSet{idx: idx, ids: ids, touched: touched})
	}
}

// setTouch notes the members of each listed set a call passes.
func (s *Scanner) setTouch(idx int, args string) {
	for k := range s.sets {
		set := &s.sets[k]
		for i, id := range set.ids {
			if set.touched[i] < 0 && strings.Contains(args, id) {
				set.touched[i] = idx
			}
		}
	}
}

// leftOf returns, for a request that means every member of its object,
// the members of a set a tool listed that no call after the request
// passed, when calls after it passed others: the part never done.
func (s *Scanner) leftOf(r request) []string {
	all := false
	for _, w := range strings.Fields(r.phrase) {
		all = all || allWords[strings.Trim(w, ",.;:!?")]
	}
	if !all {
		return nil
	}
	for _, set := range s.sets {
		var left []string
		touched := 0
		for i, id := range set.ids {
			switch {
			case set.touched[i] > r.idx:
				touched++
			case set.touched[i] < 0:
				left = append(left, id)
			}
		}
		if touched > 0 && len(left) > 0 {
			return left[:min(len(left), maxLeftIDs)]
		}
	}
	return nil
}
