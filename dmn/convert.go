package dmn

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/regelkit/regelkit/dmn/feel"
)

// ToValue converts a Go or JSON value to a FEEL value without losing
// precision: integers, json.Number and decimal strings given as
// json.Number become exact decimals; float64 becomes the decimal of its
// shortest representation (0.1 stays 0.1); time.Time becomes a date and
// time with its offset; time.Duration a days and time duration; slices
// become lists and maps contexts (keys sorted). Strings stay strings, also
// when they look like dates — typed inputs are converted against their
// typeRef by Evaluate. FEEL values pass through unchanged.
func ToValue(v any) feel.Value {
	switch x := v.(type) {
	case nil:
		return nil
	case *apd.Decimal, string, bool, feel.Date, feel.Time, feel.DateTime, feel.Duration, feel.YearsMonths,
		*feel.Context, feel.Range, *feel.Function:
		return x
	case apd.Decimal:
		return &x
	case int:
		return apd.New(int64(x), 0)
	case int8:
		return apd.New(int64(x), 0)
	case int16:
		return apd.New(int64(x), 0)
	case int32:
		return apd.New(int64(x), 0)
	case int64:
		return apd.New(x, 0)
	case uint:
		return new(apd.Decimal).SetFinite(int64(x), 0)
	case uint8:
		return apd.New(int64(x), 0)
	case uint16:
		return apd.New(int64(x), 0)
	case uint32:
		return apd.New(int64(x), 0)
	case uint64:
		d := new(apd.Decimal)
		d.Coeff.SetUint64(x)
		return d
	case float32:
		return floatValue(float64(x), 32)
	case float64:
		return floatValue(x, 64)
	case json.Number:
		d, err := feel.ParseNumber(string(x))
		if err != nil {
			return nil
		}
		return d
	case *big.Int:
		return apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(x), 0)
	case time.Time:
		_, off := x.Zone()
		return feel.DateTime{Year: x.Year(), Month: int(x.Month()), Day: x.Day(), Hour: x.Hour(), Minute: x.Minute(),
			Second: x.Second(), Nanosecond: x.Nanosecond(), Zone: feel.Zone{Kind: feel.ZoneOffset, Offset: off}}
	case time.Duration:
		return feel.Duration{Sec: int64(x / time.Second), Nano: int32(x % time.Second)}
	case []any:
		out := make([]feel.Value, len(x))
		for i, e := range x {
			out[i] = ToValue(e)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		c := feel.NewContext(len(keys))
		for _, k := range keys {
			c.Put(k, ToValue(x[k]))
		}
		return c
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]feel.Value, rv.Len())
		for i := range out {
			out[i] = ToValue(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil
		}
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		c := feel.NewContext(len(keys))
		for _, k := range keys {
			c.Put(k, ToValue(rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).Interface()))
		}
		return c
	case reflect.Pointer:
		if rv.IsNil() {
			return nil
		}
		return ToValue(rv.Elem().Interface())
	}
	return nil
}

func floatValue(f float64, bits int) feel.Value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	d, err := feel.ParseNumber(strconv.FormatFloat(f, 'g', -1, bits))
	if err != nil {
		return nil
	}
	return d
}

// toTypedValue converts a Go value and, when typ names a temporal or
// number type and the value is a string, parses the string as that type
// (so "2025-12-24" given for a date input is a date).
func toTypedValue(raw any, typ *feel.Type) feel.Value {
	v := ToValue(raw)
	s, ok := v.(string)
	if !ok || typ == nil {
		return v
	}
	switch typ.Kind {
	case feel.KindDate:
		if d, ok := feel.ParseDate(s); ok {
			return d
		}
		if dt, ok := feel.ParseDateTime(s); ok {
			return dt.Date()
		}
	case feel.KindDateTime:
		if dt, ok := feel.ParseDateTime(s); ok {
			return dt
		}
	case feel.KindTime:
		if t, ok := feel.ParseTime(s); ok {
			return t
		}
	case feel.KindDuration, feel.KindYearsMonths:
		if d, ok := feel.ParseDuration(s); ok {
			return d
		}
	case feel.KindNumber:
		if d, err := feel.ParseNumber(s); err == nil {
			return d
		}
	}
	return v
}

// FromValue converts a FEEL value to plain Go values suitable for JSON:
// numbers become json.Number (exact), dates, times and durations their
// ISO 8601 strings, lists []any and contexts map[string]any. Ranges and
// functions become their FEEL text.
func FromValue(v feel.Value) any {
	switch x := v.(type) {
	case nil:
		return nil
	case *apd.Decimal:
		return json.Number(feel.String(x))
	case string, bool:
		return x
	case []feel.Value:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = FromValue(e)
		}
		return out
	case *feel.Context:
		out := make(map[string]any, x.Len())
		for i := 0; i < x.Len(); i++ {
			k, e := x.Entry(i)
			out[k] = FromValue(e)
		}
		return out
	}
	return feel.String(v)
}
