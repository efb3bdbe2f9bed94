package meaning

// Function words of each language, for Language.
var (
	langES = set(`el la los las del que es son esta estan una un para con por se y pero mas como al lo de en su sus fue era hay sin sobre ya tambien cuando donde muy ni sigue`)
	langEN = set(`the of and to is are was were for with that this it on at by from be in its has have not but which will there still`)
)

// Language tells the language of a text by its function words: "es" or
// "en" when one has at least one and the other none, or at least twice as
// many; "" when they do not say (names and figures).
func Language(text string) string {
	es, en := 0, 0
	for _, w := range Words(text) {
		if langES[w] {
			es++
		}
		if langEN[w] {
			en++
		}
	}
	switch {
	case es > 0 && (en == 0 || es >= 2*en):
		return "es"
	case en > 0 && (es == 0 || en >= 2*es):
		return "en"
	}
	return ""
}
