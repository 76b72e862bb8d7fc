import type { Priority } from '../ready-queue.ts';

/**
 * A Priority computed by this queue. The owner marks which groups this queue has priced: a group
 * arriving by a policy switch carries some other Priority and is priced afresh.
 */
export class QueuePriority implements Priority {
  readonly level: number;
  readonly levelPriority: number;
  // Private, so a Priority still reads (and compares) as plain `{ level, levelPriority }`.
  readonly #owner: object;

  constructor(level: number, levelPriority: number, owner: object) {
    this.level = level;
    this.levelPriority = levelPriority;
    this.#owner = owner;
  }

  static pricedBy(priority: Priority, owner: object): boolean {
    return priority instanceof QueuePriority && priority.#owner === owner;
  }
}
