package bpmn

import (
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Builtins that run long or allocate much in one call, and the binary
// buffers no process script needs.
var (
	binaryGlobals = []string{"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
		"Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array",
		"Float64Array", "BigInt64Array", "BigUint64Array"}
	stringMethods = []string{"repeat", "padStart", "padEnd"}
	arrayMethods  = []string{"join", "toString", "toLocaleString", "fill", "indexOf", "lastIndexOf",
		"includes", "map", "forEach", "filter", "reduce", "reduceRight", "some", "every", "find",
		"findIndex", "findLast", "findLastIndex", "copyWithin", "slice", "splice", "reverse", "sort",
		"flat", "flatMap", "concat", "toReversed", "toSorted", "toSpliced", "with"}
)

// guards lists the builtins a script's text names, found once at
// compilation: installing a guard costs a few microseconds, and most
// scripts name none or one of them. A name built at run time
// (obj["re" + "peat"]) escapes its guard; the heap watch and Timeout
// remain.
type guards struct {
	binary                   []string
	strings, arrays          []string
	arrayFrom, jsonStringify bool
}

func findGuards(src string) guards {
	var g guards
	for _, n := range binaryGlobals {
		if strings.Contains(src, n) {
			g.binary = append(g.binary, n)
		}
	}
	for _, n := range stringMethods {
		if strings.Contains(src, n) {
			g.strings = append(g.strings, n)
		}
	}
	for _, n := range arrayMethods {
		if strings.Contains(src, n) {
			g.arrays = append(g.arrays, n)
		}
	}
	g.arrayFrom = strings.Contains(src, "from")
	g.jsonStringify = strings.Contains(src, "stringify")
	return g
}

// goja checks for an interrupt between instructions only, so a builtin
// that runs long or allocates much in one call ("x".repeat(1e12),
// Array(4e9).join()) escapes Timeout. guardBuiltins bounds those calls
// before they start and removes the binary buffers.
func (r *scriptRun) guardBuiltins(g guards) {
	vm := r.vm
	for _, name := range g.binary {
		_ = vm.GlobalObject().Delete(name)
	}
	proto := func(ctor string) *goja.Object { return vm.Get(ctor).ToObject(vm).Get("prototype").ToObject(vm) }
	wrap := func(obj *goja.Object, name string, check func(goja.FunctionCall)) {
		orig, ok := goja.AssertFunction(obj.Get(name))
		if !ok {
			return
		}
		_ = obj.DefineDataProperty(name, vm.ToValue(func(call goja.FunctionCall) goja.Value {
			check(call)
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	maxBytes := r.lim.MaxBytes
	if maxBytes > 0 && len(g.strings) > 0 {
		sp := proto("String")
		for _, name := range g.strings {
			if name == "repeat" {
				wrap(sp, name, func(call goja.FunctionCall) {
					l := int64(len(call.This.String()))
					if n := call.Argument(0).ToInteger(); n > 0 && l > 0 && n > maxBytes/l {
						r.throw(&LimitError{Limit: "MaxBytes", Max: maxBytes})
					}
				})
				continue
			}
			wrap(sp, name, func(call goja.FunctionCall) {
				if call.Argument(0).ToInteger() > maxBytes {
					r.throw(&LimitError{Limit: "MaxBytes", Max: maxBytes})
				}
			})
		}
	}
	maxRows := int64(r.lim.MaxRows)
	if maxRows <= 0 {
		return
	}
	long := func(v goja.Value) bool {
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return false
		}
		l := v.ToObject(vm).Get("length")
		return l != nil && l.ToInteger() > maxRows
	}
	check := func(v goja.Value) {
		if long(v) {
			r.throw(&LimitError{Limit: "MaxRows", Max: maxRows})
		}
	}
	if len(g.arrays) > 0 {
		ap := proto("Array")
		for _, name := range g.arrays {
			wrap(ap, name, func(call goja.FunctionCall) { check(call.This) })
		}
	}
	if g.arrayFrom {
		wrap(vm.Get("Array").ToObject(vm), "from", func(call goja.FunctionCall) { check(call.Argument(0)) })
	}
	if g.jsonStringify {
		wrap(vm.Get("JSON").ToObject(vm), "stringify", func(call goja.FunctionCall) { check(call.Argument(0)) })
	}
}

// heapFactor: a script run may grow the heap by at most heapFactor ×
// MaxBytes (64 MiB with the defaults) before it is stopped.
const heapFactor = 16

const heapTick = 10 * time.Millisecond

// watchHeap stops a script whose run grows the live heap by more than
// bound bytes. goja has no memory limit, so this is the backstop for
// values a script builds without storing them. The heap is the process's,
// so the first sample is taken after heapTick (short scripts pay only for
// a timer) and an overrun is confirmed after a garbage collection, so
// that other goroutines' garbage does not stop a script.
func watchHeap(vm *goja.Runtime, bound int64) (stop func()) {
	var mu sync.Mutex
	stopped := false
	var base uint64
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	var t *time.Timer
	tick := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		cur := read()
		switch {
		case base == 0:
			base = cur
		case cur > base+uint64(bound):
			runtime.GC()
			if read() > base+uint64(bound) {
				vm.Interrupt(&LimitError{Limit: "MaxBytes", Max: bound})
				return
			}
		}
		t.Reset(heapTick)
	}
	mu.Lock()
	t = time.AfterFunc(heapTick, tick)
	mu.Unlock()
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
	}
}
