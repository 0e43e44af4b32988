package tourney

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestRankSharesPlaces(t *testing.T) {
	got := Rank([]Standing{
		{User: 1, Name: "ada", Points: 4, Games: 2, Wins: 1},
		{User: 2, Name: "bora", Points: 6, Games: 2, Wins: 2},
		{User: 3, Name: "cem", Points: 4, Games: 4, Wins: 0},
		{User: 4, Name: "deniz", Points: 4, Games: 2, Wins: 1},
		{User: 5, Name: "ece", Points: 1, Games: 1},
	})
	want := []string{"1 bora", "2 ada", "2 deniz", "2 cem", "5 ece"}
	var have []string
	for _, s := range got {
		have = append(have, strconv.Itoa(s.Rank)+" "+s.Name)
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("Rank = %v, want %v", have, want)
	}
	awards := Awards(got, []Prize{{Chips: 100}, {Chips: 50, Item: "frame_x"}, {Chips: 25}})
	var places []int
	for _, a := range awards {
		places = append(places, a.Place)
	}
	if !reflect.DeepEqual(places, []int{1, 2, 2, 2}) || awards[1].Prize.Item != "frame_x" {
		t.Errorf("Awards = %+v, want places 1, 2, 2, 2 with the second prize shared", awards)
	}
	if Points(true) != 3 || Points(false) != 1 {
		t.Errorf("Points = %d, %d, want 3, 1", Points(true), Points(false))
	}
}

func TestParsePrizes(t *testing.T) {
	ps, err := ParsePrizes(strings.NewReader(`{"daily": [{"chips": 700, "item": "frame_cup_gold"}, {"item": "board_iznik"}], "weekly": [{"chips": 9}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Prizes{Daily: []Prize{{700, "frame_cup_gold"}, {0, "board_iznik"}}, Weekly: []Prize{{Chips: 9}}}
	if !reflect.DeepEqual(ps, want) || !reflect.DeepEqual(ps.For(Weekly), want.Weekly) {
		t.Errorf("ParsePrizes = %+v, want %+v", ps, want)
	}
	for _, bad := range []string{
		``, `[]`, `{"monthly": []}`, `{"daily": [{"chips": -1}]}`, `{"daily": [{}]}`,
		`{"daily": [{"chips": 1, "item": "Gold Frame"}]}`, `{"daily": [{"chips": 2000000000}]}`,
		`{"weekly": [{"chips": 1, "item": "frame_none"}]}`, `{"weekly": [{"item": "frame_platinum"}]}`,
	} {
		if _, err := ParsePrizes(strings.NewReader(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParsePrizes(%s) = %v, want ErrInvalid", bad, err)
		}
	}
	d := DefaultPrizes()
	for _, k := range Kinds {
		if _, err := checkPrizes(k, toEntries(d.For(k))); err != nil || len(d.For(k)) == 0 {
			t.Errorf("default %s prizes: %v", k, err)
		}
	}
}

func toEntries(ps []Prize) []prizeEntry {
	out := make([]prizeEntry, len(ps))
	for i, p := range ps {
		out[i] = prizeEntry(p)
	}
	return out
}
