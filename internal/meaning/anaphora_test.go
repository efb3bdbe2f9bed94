package meaning

import "testing"

// TestReadArtifactPointers: a pointer by position names the file it picks
// of the two just named: the lookalike picked is unclear whatever else says
// which is live, the live one picked is kept; with three named, or an
// ordinal that qualifies a noun, nothing is picked.
func TestReadArtifactPointers(t *testing.T) {
	runReads(t, dbConfig(), []readCase{
		{"of config/db.yaml and config/db.yml, the former is to be edited and the PR opened", Unclear},
		{"of config/db.yaml and config/db.yml, the latter is to be edited and the PR opened", Restates},
		{"config/db.yml and config/db.yaml look alike; raise pool_max in the second one", Unclear},
		{"de config/db.yaml y config/db.yml, cambiar pool_max a 40 en el primero", Unclear},
		{"entre config/db.yaml y config/db.yml, cambiar pool_max a 40 en el segundo", Restates},
		{"entre config/db.yml y config/db.yaml, editar este ultimo", Contradicts},
		// replaced by: the file after "by" is what replaces
		{"config/db.yaml is superseded by config/db.yml since v4.2", Restates},
		{"config/db.yaml queda sustituido por config/db.yml desde la v4.2", Restates},
		{"the loader ignores config/db.yaml, which config/db.yml has superseded", Restates},
		{"config/db.yml has expired", Contradicts},
	})
	three := dbConfig()
	three.Others = append(three.Others, "config/db.json")
	runReads(t, three, []readCase{
		{"of config/db.yaml, config/db.json and config/db.yml, the latter is to be edited", Unclear},
	})
}

// TestPointerAt: an ordinal points back only when it stands alone.
func TestPointerAt(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"the former is to be edited", true},
		{"the latter", true},
		{"edit the second one", true},
		{"en el primero y luego", true},
		{"enviar a la segunda", true},
		{"the former owner is gone", false},
		{"in the first phase of the incident", false},
		{"la primera vez que fallo", false},
		{"first, edit the file", false},
	} {
		x := New(c.text)
		got := false
		for ci, cl := range x.Clauses() {
			for i := cl.T0; i < cl.T1; i++ {
				got = got || x.toks[i].Word && x.pointerAt(i, x.clauses[ci].T1)
			}
		}
		if got != c.want {
			t.Errorf("%q: pointer %v, want %v", c.text, got, c.want)
		}
	}
}
