module {
  func.func @broken(
}
