package pgstore_test

import (
	"testing"

	"github.com/regelkit/regelkit/engine/local/pgstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
