package bpmn

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// goja checks for an interrupt between instructions only, so a builtin
// that runs long or allocates much in one call ("x".repeat(1e12),
// Array(4e9).join()) escapes Timeout. guardBuiltins bounds those calls
// before they start, and removes the binary buffers no process script
// needs.
func (r *scriptRun) guardBuiltins() {
	vm := r.vm
	for _, name := range []string{"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
		"Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array",
		"Float64Array", "BigInt64Array", "BigUint64Array"} {
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
	stringLen := func(call goja.FunctionCall) int64 { return int64(len(call.This.String())) }
	if maxBytes > 0 {
		sp := proto("String")
		wrap(sp, "repeat", func(call goja.FunctionCall) {
			if n := call.Argument(0).ToInteger(); n > 0 && stringLen(call) > 0 && n > maxBytes/stringLen(call) {
				r.throw(&LimitError{Limit: "MaxBytes", Max: maxBytes})
			}
		})
		for _, name := range []string{"padStart", "padEnd"} {
			wrap(sp, name, func(call goja.FunctionCall) {
				if call.Argument(0).ToInteger() > maxBytes {
					r.throw(&LimitError{Limit: "MaxBytes", Max: maxBytes})
				}
			})
		}
	}
	if maxRows := int64(r.lim.MaxRows); maxRows > 0 {
		long := func(v goja.Value) bool {
			if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
				return false
			}
			o := v.ToObject(vm)
			l := o.Get("length")
			return l != nil && l.ToInteger() > maxRows
		}
		check := func(call goja.FunctionCall) {
			if long(call.This) {
				r.throw(&LimitError{Limit: "MaxRows", Max: maxRows})
			}
		}
		ap := proto("Array")
		for _, name := range []string{"join", "toString", "toLocaleString", "fill", "indexOf", "lastIndexOf",
			"includes", "map", "forEach", "filter", "reduce", "reduceRight", "some", "every", "find",
			"findIndex", "findLast", "findLastIndex", "copyWithin", "slice", "splice", "reverse", "sort",
			"flat", "flatMap", "concat", "toReversed", "toSorted", "toSpliced", "with"} {
			wrap(ap, name, check)
		}
		wrap(vm.Get("Array").ToObject(vm), "from", func(call goja.FunctionCall) {
			if long(call.Argument(0)) {
				r.throw(&LimitError{Limit: "MaxRows", Max: maxRows})
			}
		})
		wrap(vm.Get("JSON").ToObject(vm), "stringify", func(call goja.FunctionCall) {
			if long(call.Argument(0)) {
				r.throw(&LimitError{Limit: "MaxRows", Max: maxRows})
			}
		})
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
