package rules

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestOptionSpecsCoverOptions: every option but the preset's name has exactly
// one spec of the kind its Go type says, in a known group, and every preset's
// defaults are inside the specs.
func TestOptionSpecsCoverOptions(t *testing.T) {
	seen := map[string]bool{}
	for _, spec := range OptionSpecs {
		if seen[spec.Key] {
			t.Errorf("%s has two specs", spec.Key)
		}
		seen[spec.Key] = true
		i, ok := optionFields[spec.Key]
		if !ok {
			t.Errorf("the spec %s names no option", spec.Key)
			continue
		}
		want := map[reflect.Kind]OptionKind{reflect.Bool: KindBool, reflect.Int: KindInt, reflect.String: KindChoice}[reflect.TypeFor[Options]().Field(i).Type.Kind()]
		if spec.Kind != want {
			t.Errorf("%s is a %s, its spec says %s", spec.Key, want, spec.Kind)
		}
		if !slices.Contains(OptionGroups, spec.Group) {
			t.Errorf("%s is in the unknown group %q", spec.Key, spec.Group)
		}
		if spec.Kind == KindChoice && len(spec.Choices) < 2 || spec.Kind == KindInt && spec.Min >= spec.Max {
			t.Errorf("%s offers nothing to choose: %+v", spec.Key, spec)
		}
	}
	for name := range optionFields {
		if name != "preset" && !seen[name] {
			t.Errorf("the option %s has no spec", name)
		}
	}
	for _, p := range Presets {
		o, err := Preset(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range OptionSpecs {
			if err := spec.check(o); err != nil {
				t.Errorf("preset %s: %v", p, err)
			}
		}
	}
}

// TestValidateBySpec: a choice outside its spec's list and a number outside
// its range are refused, naming the option.
func TestValidateBySpec(t *testing.T) {
	for _, spec := range OptionSpecs {
		o, _ := Preset(PresetCustom)
		f := reflect.ValueOf(&o).Elem().Field(optionFields[spec.Key])
		switch spec.Kind {
		case KindChoice:
			f.SetString("chess")
		case KindInt:
			f.SetInt(int64(spec.Max + 1))
		default:
			continue
		}
		err := o.Validate()
		if !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), spec.Key) {
			t.Errorf("%s out of its spec: %v", spec.Key, err)
		}
	}
}
