package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// relationCase is a user event at #7 and a verified claim citing it.
type relationCase struct {
	name, event, claim string
	want               result.Status
}

func runRelationCases(t *testing.T, cases []relationCase) {
	t.Helper()
	var cc []checkCase
	for _, tc := range cases {
		cc = append(cc, checkCase{
			name: tc.name,
			sc:   func(sc *scenarios.Scenario) { sc.Events[6].Text += "\n" + tc.event },
			mut: func(s *summary.Summary) {
				s.Corrections = nil
				s.Verified = append(s.Verified, summary.Claim{Claim: tc.claim, SourceSeq: 7})
			},
			want: tc.want,
		})
	}
	runCases(t, result.CheckGrounding, "", cc)
}

// A claim made of the cited event's own tokens, with the relation flipped,
// is not grounded: the other file is not the one in use, the other value
// is not the agreed one. English and Spanish.
func TestGroundingRelationSwapped(t *testing.T) {
	filesEN := "We load config/app.yaml; config/app.yml is a leftover and is ignored."
	filesES := "Cargamos config/app.yaml; config/app.yml es un resto y se ignora."
	valuesEN := "We agreed on 50 rows/s; 200 rows/s was only the default."
	valuesES := "Acordamos 50 filas/s; 200 filas/s era solo el valor por defecto."
	runRelationCases(t, []relationCase{
		{"the other file loaded", filesEN, "config/app.yml is loaded; config/app.yaml is ignored", result.Fail},
		{"the other file loaded, in brackets", filesEN, "config/app.yml (loaded) and config/app.yaml (ignored)", result.Fail},
		{"the other file ignored", filesEN, "we load config/app.yml, and config/app.yaml is ignored", result.Fail},
		{"the other value agreed", valuesEN, "agreed: 200 rows/s; 50 rows/s was the default", result.Fail},
		{"the other value agreed, in another unit", valuesEN, "agreed: 12000 rows/min; 3000 rows/min was the default", result.Fail},
		{"es: el otro archivo se carga", filesES, "config/app.yml se carga; config/app.yaml se ignora", result.Fail},
		{"es: el otro valor acordado", valuesES, "acordado: 200 filas/s; 50 filas/s era el valor por defecto", result.Fail},
		{"es: el otro valor acordado, entre paréntesis", valuesES, "200 filas/s (acordado) y 50 filas/s (por defecto)", result.Fail},
		{"from and to swapped", "p95 went from about 400 ms to well over 2 s this week.", "p95 went from 2 s to 400 ms", result.Fail},
		{"es: de y a intercambiados", "El p95 pasó de unos 400 ms a más de 2 s esta semana.", "el p95 pasó de 2 s a 400 ms", result.Fail},
	})
}

// The same relation in other words, order, brackets, units, locale or with
// tokens joined is grounded. English and Spanish.
func TestGroundingRelationFaithful(t *testing.T) {
	filesEN := "We load config/app.yaml; config/app.yml is a leftover and is ignored."
	filesES := "Cargamos config/app.yaml; config/app.yml es un resto y se ignora."
	valuesEN := "We agreed on 50 rows/s; 200 rows/s was only the default."
	valuesES := "Acordamos 50 filas/s; 200 filas/s era solo el valor por defecto."
	runRelationCases(t, []relationCase{
		{"same relation", filesEN, "config/app.yaml is loaded; config/app.yml is ignored", result.Pass},
		{"reordered", filesEN, "config/app.yml is ignored, while config/app.yaml is the one we load", result.Pass},
		{"status in brackets", filesEN, "config/app.yml (ignored, a leftover) and config/app.yaml (loaded)", result.Pass},
		{"status in a relative clause", filesEN, "config/app.yaml, which we load, replaces config/app.yml, which is ignored", result.Pass},
		{"agreed value", valuesEN, "agreed: 50 rows/s; 200 rows/s was the default", result.Pass},
		{"agreed value in another unit", valuesEN, "agreed: 3000 rows/min; the default was 12000 rows/min", result.Pass},
		{"es: misma relación", filesES, "config/app.yaml se carga; config/app.yml se ignora", result.Pass},
		{"es: entre paréntesis", filesES, "config/app.yml (se ignora) y config/app.yaml (se carga)", result.Pass},
		{"es: valor acordado", valuesES, "acordado: 50 filas/s; el valor por defecto era 200 filas/s", result.Pass},
		{"en summary of an es event", valuesES, "agreed (acordado): 50 filas/s; 200 filas/s was the default (por defecto)", result.Pass},
		{"joined tokens", "rsync from backup-01 to /srv/data started; logs in /var/log/rsync.log", "rsync backup-01:/srv/data started, logs in /var/log/rsync.log", result.Pass},
		{"es: tokens unidos", "rsync desde backup-01 hacia /srv/data iniciado; registro en /var/log/rsync.log", "rsync backup-01:/srv/data iniciado, registro en /var/log/rsync.log", result.Pass},
		{"other unit and scale", "Pod limit memory: 768Mi; upstream timeout 30s.", "pod memory limit 0.75 GiB; upstream timeout 30000 ms", result.Pass},
		{"es: otra unidad", "Límite de memoria del pod: 768Mi; timeout del upstream 30s.", "límite de memoria del pod 0,75 GiB; timeout del upstream 30000 ms", result.Pass},
		{"other locale", "Processed 41,206,553 rows/s at peak; p95 latency 1.5 s.", "pico: 41.206.553 rows/s; latencia p95 de 1,5 s", result.Pass},
		{"es: otra locale", "Se procesaron 41.206.553 filas/s en el pico; latencia p95 de 1,5 s.", "peak 41,206,553 filas/s; p95 latency 1.5 s", result.Pass},
		{"from and to, reordered", "p95 went from about 400 ms to well over 2 s this week.", "p95 rose to over 2 s from about 400 ms", result.Pass},
		{"es: de y a, en otro orden", "El p95 pasó de unos 400 ms a más de 2 s esta semana.", "el p95 subió a más de 2 s desde unos 400 ms", result.Pass},
		{"tokens split in the summary", "rsync backup-01:/srv/data started", "rsync of /srv/data on backup-01 started", result.Pass},
	})
}

func TestClausesOf(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"p is loaded; q is ignored", []string{"p is loaded", " q is ignored"}},
		{"p (ignored) and q (loaded)", []string{"p (ignored)", " q (loaded)"}},
		{"timeout: 30s, retries: 2", []string{"timeout: 30s", " retries: 2"}},
		{"v1.9.0 and 1,500 rows", []string{"v1.9.0", " 1,500 rows"}},
		{"a — b\nc", []string{"a ", " b", "c"}},
		{"x y se ignora, pero z no", []string{"x y se ignora", " z no"}},
		{"p is a leftover and is ignored and q is loaded", []string{"p is a leftover and is ignored", " q is loaded"}},
		{"p se carga y q se ignora", []string{"p se carga", " q se ignora"}},
	} {
		var got []string
		for _, sp := range clausesOf(tc.text) {
			got = append(got, tc.text[sp.start:sp.end])
		}
		if len(got) != len(tc.want) {
			t.Errorf("clausesOf(%q) = %q; want %q", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("clausesOf(%q) = %q; want %q", tc.text, got, tc.want)
				break
			}
		}
	}
}

func TestRelStem(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"load", "loaded"}, {"loads", "loading"}, {"agree", "agreed"}, {"ignore", "ignored"}, {"ignores", "ignored"},
		{"ignora", "ignorado"}, {"acordado", "acordamos"}, {"carga", "cargamos"}, {"default", "defaults"},
	} {
		if relStem(tc.a) != relStem(tc.b) {
			t.Errorf("relStem(%q) = %q, relStem(%q) = %q; want one stem", tc.a, relStem(tc.a), tc.b, relStem(tc.b))
		}
	}
	for _, tc := range []struct{ a, b string }{{"time", "timeout"}, {"load", "lead"}, {"agreed", "aggregate"}} {
		if relStem(tc.a) == relStem(tc.b) {
			t.Errorf("relStem(%q) = relStem(%q) = %q; want two stems", tc.a, tc.b, relStem(tc.a))
		}
	}
}
