/**
 * The PRIO queue's binary min-heap, over typed arrays: position `i` holds a packed key
 * (`task-key.ts`) in `keys[i]` and the slot it belongs to in `slots[i]`. One double comparison per
 * step and no object per entry, so a sift touches two flat arrays instead of chasing pointers.
 * Grows by doubling; `reslot` gives the memory back.
 */
export class KeyHeap {
  keys: Float64Array;
  slots: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
  }

  get capacity(): number {
    return this.keys.length;
  }

  /** Key of the top entry; only meaningful when `length > 0`. */
  get topKey(): number {
    return this.keys[0]!;
  }

  /** Slot of the top entry, or −1 when empty. */
  get topSlot(): number {
    return this.length === 0 ? -1 : this.slots[0]!;
  }

  push(key: number, slot: number): void {
    this.append(key, slot);
    this.siftUp(this.length - 1);
  }

  /** Adds at the end without restoring the heap order (`bulkPush` heapifies afterwards). */
  append(key: number, slot: number): void {
    if (this.length === this.keys.length) this.resize(Math.max(16, this.length * 2));
    this.keys[this.length] = key;
    this.slots[this.length] = slot;
    this.length++;
  }

  /**
   * Removes the top entry. Bottom-up (Floyd): the hole at the root walks down to a leaf taking
   * the smaller child (one comparison per level instead of two), then the last entry — which
   * usually belongs near the bottom anyway — sifts up from there.
   */
  removeTop(): void {
    const n = --this.length;
    if (n <= 0) {
      this.length = 0;
      return;
    }
    const keys = this.keys;
    const slots = this.slots;
    const key = keys[n]!;
    const slot = slots[n]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
      keys[i] = keys[child]!;
      slots[i] = slots[child]!;
      i = child;
    }
    this.placeUp(i, key, slot);
  }

  siftUp(index: number): void {
    this.placeUp(index, this.keys[index]!, this.slots[index]!);
  }

  /** Puts `(key, slot)` into the hole at `index`, moving it up past every larger parent. */
  private placeUp(index: number, key: number, slot: number): void {
    const keys = this.keys;
    const slots = this.slots;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = keys[parent]!;
      if (!(key < up)) break;
      keys[i] = up;
      slots[i] = slots[parent]!;
      i = parent;
    }
    keys[i] = key;
    slots[i] = slot;
  }

  siftDown(index: number): void {
    const n = this.length;
    const keys = this.keys;
    const slots = this.slots;
    const key = keys[index]!;
    const slot = slots[index]!;
    let i = index;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
      const down = keys[child]!;
      if (!(down < key)) break;
      keys[i] = down;
      slots[i] = slots[child]!;
      i = child;
    }
    keys[i] = key;
    slots[i] = slot;
  }

  /** Floyd's bottom-up heap construction: O(n). */
  heapify(): void {
    for (let i = (this.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /**
   * Reallocates at `capacity` (≥ `length`) keeping every key in place and renaming the slot at
   * position i to i — what `SlotTable.repack` does when handed this heap's slots as its order.
   */
  reslot(capacity: number): void {
    const keys = new Float64Array(capacity);
    keys.set(this.keys.subarray(0, this.length));
    this.keys = keys;
    this.slots = new Int32Array(capacity);
    for (let i = 0; i < this.length; i++) this.slots[i] = i;
  }

  private resize(capacity: number): void {
    const keys = new Float64Array(capacity);
    const slots = new Int32Array(capacity);
    keys.set(this.keys.subarray(0, this.length));
    slots.set(this.slots.subarray(0, this.length));
    this.keys = keys;
    this.slots = slots;
  }
}
