/**
 * The start of a value's JSON, written only as far as a job row shows it. `JSON.stringify` writes
 * the whole value first: an 8 MB `Uint8Array` result (a `{"0":…}` object to JSON) held the main
 * thread for 5 s, every tenant's runs and the service's sockets with it, to keep 200 characters.
 */

/**
 * What `JSON.stringify(value, r)` writes, where `r` writes a BigInt as `"<digits>n"`, exactly
 * up to `budget` characters: it stops once it has written more (what follows is not that
 * JSON's); undefined where JSON writes nothing (undefined, a function, a symbol).
 */
export function jsonHead(value: unknown, budget: number): string | undefined {
  const head = new JsonHead(budget);
  return head.write(value, '') ? head.text() : undefined;
}

class JsonHead {
  private readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly budget: number) {}

  text(): string {
    return this.parts.join('');
  }

  private push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  private get full(): boolean {
    return this.length > this.budget;
  }

  /** Writes `v` (under `key`, for `toJSON`); false where JSON would write nothing. */
  write(v: unknown, key: string): boolean {
    if (typeof v === 'object' && v !== null && typeof (v as Dated).toJSON === 'function') {
      v = (v as Dated).toJSON(key);
    }
    // JSON writes a boxed primitive (structured clone keeps them) as the primitive.
    if (v instanceof Number) v = Number(v);
    else if (v instanceof String) v = String(v);
    else if (v instanceof Boolean) v = v.valueOf();
    switch (typeof v) {
      case 'bigint':
        return this.string(`${v}n`);
      case 'string':
        return this.string(v);
      case 'number':
        this.push(Number.isFinite(v) ? String(v) : 'null');
        return true;
      case 'boolean':
        this.push(v ? 'true' : 'false');
        return true;
      case 'object':
        if (v === null) this.push('null');
        else if (Array.isArray(v)) this.array(v);
        else if (ArrayBuffer.isView(v) && !(v instanceof DataView))
          this.typed(v as unknown as Typed);
        else this.object(v as Record<string, unknown>);
        return true;
      default:
        return false;
    }
  }

  /** A string, only its head escaped: its closing quote may be lost past the budget. */
  private string(s: string): boolean {
    const room = this.budget - this.length + 1;
    this.push(JSON.stringify(s.length > room ? s.slice(0, room) : s));
    return true;
  }

  private array(a: readonly unknown[]): void {
    this.push('[');
    for (let i = 0; i < a.length && !this.full; i++) {
      if (i > 0) this.push(',');
      if (!this.write(a[i], String(i))) this.push('null');
    }
    this.push(']');
  }

  /** A typed array is an object of its indices to JSON (`{"0":1,"1":2}`), walked by index. */
  private typed(a: Typed): void {
    this.push('{');
    for (let i = 0; i < a.length && !this.full; i++) {
      this.push(i > 0 ? `,"${i}":` : `"${i}":`);
      this.write(a[i], String(i));
    }
    this.push('}');
  }

  private object(o: Record<string, unknown>): void {
    this.push('{');
    let first = true;
    // `for…in` rather than Object.keys: a stop at the budget leaves the other keys unlisted.
    for (const key in o) {
      if (this.full) break;
      if (!Object.hasOwn(o, key)) continue;
      const parts = this.parts.length;
      const length = this.length;
      this.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      if (this.write(o[key], key)) first = false;
      else {
        // JSON leaves out a key whose value it cannot write.
        this.parts.length = parts;
        this.length = length;
      }
    }
    this.push('}');
  }
}

type Dated = { toJSON(key: string): unknown };
type Typed = { readonly length: number; readonly [i: number]: number | bigint };
