// Tabs in a source line: the caret under the diagnostic lines up with the expanded line.
func.func @f() {
		return %undefined : !torch.int
}
