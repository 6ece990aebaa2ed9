package feel

import "testing"

// Arithmetic and equality across FEEL's types (DMN 1.5 §10.3.2.3): each
// operand type pairs with the types the spec defines, and every other
// pairing is null.
func TestArithmeticByOperandType(t *testing.T) {
	checkEval(t, []evalCase{
		// strings
		{`"a" + "b"`, `"ab"`},
		{`"a" - "b"`, `null`},
		// days and time durations
		{`duration("P1DT2H") + duration("PT30M")`, `duration("P1DT2H30M")`},
		{`duration("P1D") - duration("PT1H")`, `duration("PT23H")`},
		{`duration("P1D") / duration("PT12H")`, `2`},
		{`duration("PT1H") / duration("PT0S")`, `null`},
		{`duration("PT1H") * 2`, `duration("PT2H")`},
		{`2 * duration("PT1H")`, `duration("PT2H")`},
		{`duration("PT1H") / 2`, `duration("PT30M")`},
		{`duration("PT1H") / 0`, `null`},
		{`duration("PT1H") - 2`, `null`},
		{`duration("P1D") + date("2024-02-28")`, `date("2024-02-29")`},
		{`duration("PT1H") + time("10:00:00")`, `time("11:00:00")`},
		{`duration("PT1H") + date and time("2024-01-01T23:30:00")`, `date and time("2024-01-02T00:30:00")`},
		// years and months durations
		{`duration("P1Y") + duration("P2M")`, `duration("P1Y2M")`},
		{`duration("P1Y") - duration("P2M")`, `duration("P10M")`},
		{`duration("P1Y") / duration("P6M")`, `2`},
		{`duration("P1Y") / duration("P0M")`, `null`},
		{`duration("P1Y") * 2`, `duration("P2Y")`},
		{`2 * duration("P1Y")`, `duration("P2Y")`},
		{`duration("P1Y") / 4`, `duration("P3M")`},
		{`duration("P1Y") / 0`, `null`},
		{`duration("P1Y") + date("2023-03-15")`, `date("2024-03-15")`},
		{`duration("P1Y") + duration("PT1H")`, `null`},
		// dates, date and times, times
		{`date("2024-03-01") - date("2024-02-01")`, `duration("P29D")`},
		{`date("2024-03-01") + duration("P1Y")`, `date("2025-03-01")`},
		{`date("2024-03-01") - duration("P1D")`, `date("2024-02-29")`},
		{`date("2024-03-01") + date("2024-02-01")`, `null`},
		{`date and time("2024-01-01T10:00:00") - date and time("2024-01-01T08:30:00")`, `duration("PT1H30M")`},
		{`date and time("2024-01-01T10:00:00Z") - date and time("2024-01-01T08:00:00")`, `null`},
		// a date takes part as midnight UTC
		{`date and time("2024-01-02T00:00:00Z") - date("2024-01-01")`, `duration("P1D")`},
		{`date("2024-01-02") - date and time("2024-01-01T12:00:00Z")`, `duration("PT12H")`},
		{`date("2024-01-02") - date and time("2024-01-01T12:00:00")`, `null`},
		{`date and time("2024-01-31T10:00:00") + duration("P1M")`, `date and time("2024-02-29T10:00:00")`},
		{`time("10:00:00") - time("08:30:00")`, `duration("PT1H30M")`},
		{`time("23:30:00") + duration("PT1H")`, `time("00:30:00")`},
		{`time("00:30:00") - duration("P1DT1H")`, `time("23:30:00")`},
		{`time("10:00:00Z") - time("08:00:00")`, `null`},
		{`time("10:00:00") * 2`, `null`},
		{`null + 1`, `null`},
	})
}

func TestEqualityByOperandType(t *testing.T) {
	checkEval(t, []evalCase{
		{`duration("P1D") = duration("PT24H")`, `true`},
		{`duration("P1Y") = duration("P12M")`, `true`},
		{`duration("P0D") = duration("P0M")`, `true`},
		{`duration("P1D") = duration("P1M")`, `null`},
		{`date("2024-01-01") = date and time("2024-01-01T00:00:00Z")`, `true`},
		{`date("2024-01-01") = date and time("2024-01-01T00:00:00")`, `false`},
		{`date and time("2024-01-01T01:00:00+01:00") = date and time("2024-01-01T00:00:00Z")`, `true`},
		{`date and time("2024-01-01T00:00:00") = date and time("2024-01-01T00:00:00Z")`, `false`},
		{`time("10:00:00+01:00") = time("09:00:00Z")`, `true`},
		{`time("10:00:00") = time("10:00:00Z")`, `false`},
		{`[1, [2, 3]] = [1, [2, 3]]`, `true`},
		{`[1, 2] = [1, "2"]`, `null`},
		{`[1, 2] = [1]`, `false`},
		{`{a: 1, b: [2]} = {b: [2], a: 1}`, `true`},
		{`{a: 1} = {b: 1}`, `false`},
		{`{a: 1} = {a: "1"}`, `null`},
		{`[1..2] = [1..2]`, `true`},
		{`[1..2] = (1..2]`, `false`},
		{`1 = "1"`, `null`},
		{`null = null`, `true`},
		{`null = 1`, `false`},
	})
}
