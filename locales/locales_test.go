package locales

import (
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// reserved are the key names go-i18n reads as parts of a message, which
// therefore cannot be segments of an ID.
var reserved = []string{"one", "other", "zero", "two", "few", "many", "id", "description", "hash"}

// idPattern is the shape of a message ID: dotted snake_case.
var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$`)

// templateVar finds the template fields a message uses, such as {{.Count}}.
var templateVar = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

// parse reads one embedded message file into ID → message.
func parse(t *testing.T, name string) map[string]*i18n.Message {
	t.Helper()
	buf, err := fs.ReadFile(files, name)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := i18n.ParseMessageFileBytes(buf, name, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := map[string]*i18n.Message{}
	for _, m := range mf.Messages {
		if _, dup := out[m.ID]; dup {
			t.Errorf("%s: %s appears twice", name, m.ID)
		}
		out[m.ID] = m
	}
	return out
}

// forms returns the message's non-empty plural forms by name.
func forms(m *i18n.Message) map[string]string {
	all := map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other}
	maps.DeleteFunc(all, func(_, v string) bool { return v == "" })
	return all
}

func TestFilesHaveSameMessages(t *testing.T) {
	en, tr := parse(t, "active.en.toml"), parse(t, "active.tr.toml")
	if len(en) == 0 {
		t.Fatal("active.en.toml has no messages")
	}
	for _, id := range slices.Sorted(maps.Keys(en)) {
		if _, ok := tr[id]; !ok {
			t.Errorf("%s is in active.en.toml but not in active.tr.toml", id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(tr)) {
		if _, ok := en[id]; !ok {
			t.Errorf("%s is in active.tr.toml but not in active.en.toml", id)
		}
	}
}

// fisWord finds the word "fiş" (a receipt, once used for chips) in any
// inflection, in Turkish-lower-cased text: fiş, fişi, fişler,
// fişlerimizin, fişli… It must start a word, so that a word merely
// holding the letters does not count.
var fisWord = regexp.MustCompile(`(?:^|[^\p{L}])(fiş\p{L}*)`)

// fisWords returns the words of text that are "fiş" in some inflection,
// leaving out fişek (a cartridge), another word.
func fisWords(text string) []string {
	var out []string
	for _, m := range fisWord.FindAllStringSubmatch(strings.ToLowerSpecial(unicode.TurkishCase, text), -1) {
		if !strings.HasPrefix(m[1], "fişek") {
			out = append(out, m[1])
		}
	}
	return out
}

// TestTurkishSaysCip: Turkish calls chips "çip" (and "sanal çip"), as
// the source guides do; never "fiş" (SPEC section 12).
func TestTurkishSaysCip(t *testing.T) {
	for id, m := range parse(t, "active.tr.toml") {
		for form, text := range forms(m) {
			if words := fisWords(text); len(words) > 0 {
				t.Errorf("%s (%s) says %q; write çip: %s", id, form, words, text)
			}
		}
	}
}

func TestFisWords(t *testing.T) {
	tests := map[string]bool{
		"fiş": true, "2.500 fiş": true, "Fişler": true, "FİŞLER": true, "sanal fişlerimizin": true,
		"(fiş aktarma)": true, "fişli olarak": true, "“Fiş ver”": true, "Kazanan 4.750 fiş alır": true,
		"çip": false, "sanal çipler": false, "fişek": false, "havai fişekler": false, "kafiş": false, "": false,
	}
	for text, want := range tests {
		if got := len(fisWords(text)) > 0; got != want {
			t.Errorf("fisWords(%q) = %q, want found %v", text, fisWords(text), want)
		}
	}
}

func TestMessagesWellFormed(t *testing.T) {
	files := map[string]map[string]*i18n.Message{
		"en": parse(t, "active.en.toml"),
		"tr": parse(t, "active.tr.toml"),
	}
	for lang, msgs := range files {
		for id, m := range msgs {
			if !idPattern.MatchString(id) {
				t.Errorf("%s: ID %q is not dotted snake_case", lang, id)
			}
			for seg := range strings.SplitSeq(id, ".") {
				if slices.Contains(reserved, seg) {
					t.Errorf("%s: ID %q uses the reserved segment %q", lang, id, seg)
				}
			}
			f := forms(m)
			if strings.TrimSpace(m.Other) == "" {
				t.Errorf("%s: %s is empty", lang, id)
			}
			for name, text := range f {
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s: %s.%s is blank", lang, id, name)
				}
			}
			// A plural message gives exactly one and other: the forms of
			// both English and Turkish (CLDR).
			if len(f) > 1 && (len(f) != 2 || f["one"] == "") {
				t.Errorf("%s: %s has forms %v, want one and other", lang, id, slices.Sorted(maps.Keys(f)))
			}
		}
	}
	// Both languages use the same plural shape and template fields.
	for id, e := range files["en"] {
		r, ok := files["tr"][id]
		if !ok {
			continue // reported by TestFilesHaveSameMessages
		}
		if (len(forms(e)) > 1) != (len(forms(r)) > 1) {
			t.Errorf("%s is plural in one language only", id)
		}
		if ev, rv := vars(e), vars(r); !slices.Equal(ev, rv) {
			t.Errorf("%s uses fields %v in English but %v in Turkish", id, ev, rv)
		}
	}
}

// vars returns the sorted template fields the message's forms use.
func vars(m *i18n.Message) []string {
	var out []string
	for _, text := range forms(m) {
		for _, match := range templateVar.FindAllStringSubmatch(text, -1) {
			out = append(out, match[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestNewBundle(t *testing.T) {
	b, err := NewBundle()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(b.LanguageTags()); got != len(Languages) {
		t.Errorf("bundle has %d languages, want %d", got, len(Languages))
	}
	tests := []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "Too many attempts. Please try again in 1 second."},
		{"en", 30, "Too many attempts. Please try again in 30 seconds."},
		{"tr", 1, "Çok fazla deneme yapıldı. Lütfen 1 saniye sonra yeniden deneyin."},
	}
	for _, tc := range tests {
		got, err := i18n.NewLocalizer(b, tc.lang).Localize(&i18n.LocalizeConfig{
			MessageID:    "error.too_many_attempts",
			PluralCount:  tc.n,
			TemplateData: map[string]any{"Count": tc.n},
		})
		if err != nil || got != tc.want {
			t.Errorf("Localize(%s, %d) = %q, %v; want %q", tc.lang, tc.n, got, err, tc.want)
		}
	}
	if first := Default(); first != Default() {
		t.Error("Default() builds a new bundle each call")
	}
	if len(Codes) != len(Languages) {
		t.Errorf("Codes %v do not match Languages %v", Codes, Languages)
	}
	for i, tag := range Languages {
		if tag.String() != Codes[i] {
			t.Errorf("Codes[%d] = %s, want %s", i, Codes[i], tag)
		}
	}
}
