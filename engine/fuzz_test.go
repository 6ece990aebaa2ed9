package engine

import (
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"testing"
)

// FuzzParseVariables: any input either fails with a *VariableError or
// gives variables that survive a JSON round trip unchanged.
func FuzzParseVariables(f *testing.F) {
	for _, s := range []string{
		`{"a":{"value":1,"type":"Integer"}}`,
		`{"a":{"value":"2025-12-24T10:30:00.000+0100","type":"Date"},"b":{"value":null,"type":"String"}}`,
		`{"j":{"value":"{\"x\":[1,2.5]}","type":"Json"},"o":{"value":{"k":"v"},"type":"json"}}`,
		`{"d":{"value":1e400,"type":"Double"},"s":{"value":-32768,"type":"Short"}}`,
		`{"b":{"value":"aGk=","type":"Bytes"},"x":{"value":true}}`,
		`{"f":{"value":"x","type":"File","valueInfo":{"filename":"a.txt"}}}`,
		`{"a":{"value":"abc","type":"Long"}}`, `[]`, `null`, `{"a":1}`, `{"a":{"type":"Boolean"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, parse := range []func([]byte) (Variables, error){ParseVariables, ParseValues} {
			vs, err := parse(data)
			if err != nil {
				var ve *VariableError
				if !errors.As(err, &ve) {
					t.Fatalf("error %v is not a *VariableError", err)
				}
				continue
			}
			b, err := json.Marshal(vs)
			if err != nil {
				t.Fatalf("marshal %v: %v", vs, err)
			}
			back, err := ParseVariables(b)
			if err != nil {
				t.Fatalf("re-parse %s: %v", b, err)
			}
			for k, v := range vs {
				if !back[k].Equal(v) {
					t.Fatalf("%s: %v came back as %v", k, v, back[k])
				}
			}
		}
	})
}

// FuzzParseDecisionDefinitionQuery: any query string either fails with a
// 400 or gives a query whose parameters read back to the same query.
func FuzzParseDecisionDefinitionQuery(f *testing.F) {
	for _, s := range []string{"key=a&latestVersion=true", "sortBy=version&sortOrder=desc&firstResult=2&maxResults=0",
		"tenantIdIn=a,b&includeDecisionDefinitionsWithoutTenantId=true", "version=x", "keyLike=%25a_", "sortBy=key"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseDecisionDefinitionQuery(v)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Status != 400 {
				t.Fatalf("error %v is not a 400", err)
			}
			return
		}
		back, err := ParseDecisionDefinitionQuery(q.Values())
		if err != nil {
			t.Fatalf("re-parse of %v: %v", q.Values(), err)
		}
		if !reflect.DeepEqual(normalize(back), normalize(q)) {
			t.Fatalf("%q: %+v came back as %+v", raw, q, back)
		}
		q.Filter(nil)
	})
}

// normalize drops list entries that cannot survive a comma-joined
// parameter (empty lists and lists of one empty string look alike).
func normalize(q DecisionDefinitionQuery) DecisionDefinitionQuery {
	if len(q.IDIn) == 1 && q.IDIn[0] == "" {
		q.IDIn = nil
	}
	if len(q.TenantIDIn) == 1 && q.TenantIDIn[0] == "" {
		q.TenantIDIn = nil
	}
	return q
}
