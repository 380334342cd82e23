func.func @first() {
  return
}
// XX
func.func @second() {
  return
}
