package validate

// checkFEELCells reports FEEL syntax errors in the cells of t (BIZ-015).
func (v *validator) checkFEELCells(t *table) {}

// checkOverlaps reports semantically overlapping rules of a UNIQUE table (BIZ-016).
func (v *validator) checkOverlaps(t *table, idx []int, duplicates map[[2]int]bool) {}
