/**
 * Built-in task functions of `TaskPool` workers, by name (the same registry in every worker):
 * each CPU kernel runs one unit of `arg` size (kernels.ts; default its initial size) and returns a
 * checksum; `sleep` resolves after `arg` ms (the worker awaits it: tasks are non-preemptive).
 */
import { CPU_KERNELS } from './kernels.ts';

export type TaskFunction = (arg: unknown) => unknown;

const kernelTask =
  (name: keyof typeof CPU_KERNELS): TaskFunction =>
  (arg) => {
    const kernel = CPU_KERNELS[name];
    const size = typeof arg === 'number' ? Math.floor(arg) : kernel.initialSize;
    return kernel.unit(Math.max(1, Math.min(kernel.maxSize, size)));
  };

export const BUILTIN_TASKS: Readonly<Record<string, TaskFunction>> = {
  hash: kernelTask('hash'),
  sort: kernelTask('sort'),
  compress: kernelTask('compress'),
  matmul: kernelTask('matmul'),
  spin: kernelTask('spin'),
  sleep: (arg) =>
    new Promise<void>((resolve) => setTimeout(resolve, typeof arg === 'number' ? arg : 0)),
};
