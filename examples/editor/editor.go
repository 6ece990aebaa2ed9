package editor

import "embed"

// FS holds sources/ and tasks/.
//
//go:embed sources tasks
var FS embed.FS
