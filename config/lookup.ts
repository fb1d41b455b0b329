/** How validation steps read resolved keys; shared by the validation modules. */
import type { DefaultedKeyId, KeyId, KeyValue } from "./keys";
import type { Resolved } from "./resolve";

/** The parsed value of a key, or undefined when unset without default, or invalid. */
export type Get = <K extends KeyId>(id: K) => KeyValue<K> | undefined;
/**
 * The value of a key with a declared default: the parsed value, or the default when the key is unset
 * or its value did not parse (that problem is recorded, and no configuration is returned with it).
 */
export type GetDefaulted = <K extends DefaultedKeyId>(id: K) => KeyValue<K>;
/** The resolved key: value, and the key it was read from. */
export type GetResolved = <K extends KeyId>(id: K) => Resolved<KeyValue<K>>;
/** The key to name in a message: the one the user set, else the canonical key. */
export type KeyOf = (id: KeyId) => string;

/** The ways a validation step reads keys, handed to it together. */
export interface Lookup {
    readonly r: GetResolved;
    readonly v: Get;
    readonly d: GetDefaulted;
    readonly keyOf: KeyOf;
}

/** Compares dotted versions numerically, ignoring a leading "v" and any pre-release suffix. */
export function compareVersions(a: string, b: string): number {
    const parts = (s: string) => s.replace(/^v/, "").split(/[-+]/)[0]!.split(".").map(Number);
    const [pa, pb] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
        const d = (pa[i] ?? 0) - (pb[i] ?? 0);
        if (d !== 0) return d;
    }
    return 0;
}
