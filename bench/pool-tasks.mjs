// The tasks of the pool benchmark, loaded by both pools under test (the scheduler as a user module,
// Piscina as its worker file), so both run the very same functions.
export function inc(x) {
  return x + 1;
}

export function factorial(n) {
  let result = 1n;
  for (let i = 2n; i <= BigInt(n); i++) result *= i;
  return result;
}
