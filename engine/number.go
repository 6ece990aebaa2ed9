package engine

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/cockroachdb/apd/v3"
)

// numberVariable types an exact decimal: Integer or Long when integral
// and in range, else Double with its decimal text (exponent free, as FEEL
// writes numbers).
func numberVariable(d *apd.Decimal) (Variable, error) {
	if d.Form != apd.Finite {
		return Variable{}, &VariableError{Type: TypeDouble, Value: d.String(), Reason: "not a finite number"}
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.Exponent >= 0 {
		if i, err := r.Int64(); err == nil {
			return integral(i), nil
		}
	}
	// a fraction or beyond int64, so not zero; Text('f') writes no exponent
	return Variable{Type: TypeDouble, Value: json.Number(r.Text('f'))}, nil
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, err1 := parseDecimal(string(a))
	y, err2 := parseDecimal(string(b))
	return err1 == nil && err2 == nil && x.Cmp(y) == 0
}

// Int64 returns the value of an integral number variable (Short, Integer,
// Long, or a Double without fraction) as an int64.
func (v Variable) Int64() (int64, bool) {
	n, ok := v.Value.(json.Number)
	if !ok {
		return 0, false
	}
	d, err := parseDecimal(string(n))
	if err != nil {
		return 0, false
	}
	var r apd.Decimal
	r.Reduce(d)
	i, err := r.Int64()
	return i, err == nil
}

// Float64 returns the value of a number variable as a float64 (which may
// round it).
func (v Variable) Float64() (float64, bool) {
	n, ok := v.Value.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsInf(f, 0)
}

// parseDecimal reads a finite decimal number ("12.5", "-3", "1.2e3").
func parseDecimal(s string) (*apd.Decimal, error) {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return nil, err
	}
	if d.Form != apd.Finite {
		return nil, fmt.Errorf("not a finite number: %q", clip(s))
	}
	return d, nil
}
