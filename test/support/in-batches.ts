/** `count` calls of `task`, `width` at a time (each batch ends before the next starts). */
export async function inBatches(count: number, width: number, task: (i: number) => Promise<unknown>) {
  for (let start = 0; start < count; start += width)
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, j) => task(start + j)));
}
