// A value that is often at hand and sometimes has to be fetched (the numeric id behind
// `@current`): resolvers return it as is when it is, and only wait when it is not.
export type MaybePromise<T> = T | Promise<T>;

export function mapMaybePromise<T, R>(value: MaybePromise<T>, map: (value: T) => R): MaybePromise<R> {
  return value instanceof Promise ? value.then(map) : map(value);
}
