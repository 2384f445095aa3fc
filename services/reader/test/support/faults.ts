import { PortError, type IndexStore } from '@gitdex/ports';

export type Fault = 'unavailable' | 'hang' | 'bug';

/** The same index, with every read failing as an unreachable engine would, never answering, or throwing a bug. */
export function faulty(index: IndexStore, fault: Fault): IndexStore {
  return new Proxy(index, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || property === 'close') return value;
      return (..._args: unknown[]) => {
        if (fault === 'unavailable') return Promise.reject(new PortError('UNAVAILABLE', 'connect ECONNREFUSED 127.0.0.1:9200'));
        if (fault === 'hang') return new Promise(() => undefined);
        return Promise.reject(new TypeError("Cannot read properties of undefined (reading 'secretInternalDetail')"));
      };
    },
  });
}
