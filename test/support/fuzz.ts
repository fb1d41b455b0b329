/**
 * A small seeded generator for fuzz tests: deterministic for a seed (a failure names its seed and case, and
 * FUZZ_SEED=<seed> replays it), bounded by a number of cases, never by time, so a seed runs the same cases on a busy
 * machine as on an idle one (the counts are chosen so a fuzz test takes seconds). No
 * dependency: the inputs these tests need are strings, bytes and small objects, built from pools of values known to
 * break parsers and from random mutations of real files.
 */

/** A seeded source of random choices (mulberry32). */
export class Rand {
    private state: number;

    constructor(seed: number) {
        this.state = seed >>> 0;
    }

    /** A float in [0, 1). */
    next(): number {
        let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }

    /** An integer in [0, n). */
    int(n: number): number {
        return Math.floor(this.next() * n);
    }

    /** True with probability `p`. */
    chance(p: number): boolean {
        return this.next() < p;
    }

    /** One of `items`. */
    pick<T>(items: readonly T[]): T {
        return items[this.int(items.length)]!;
    }

    /** A string of `length` characters from `alphabet`. */
    string(length: number, alphabet: string): string {
        let out = "";
        for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
        return out;
    }
}

/** Characters that mean something to YAML, JSON, shells, paths or terminals, and some that are not ASCII. */
export const NASTY = ":-[]{}&*!|>'\"%@`#,?\\/\t\n\r\u0000\u0007\u001b\u00e9\u00ff\u2028\ud83d\ude00 ";

/** Values that have broken parsers and validators before, as they would appear in a stack file or a JSON file. */
export const NASTY_VALUES: readonly string[] = [
    "",
    " ",
    "\n",
    "null",
    "~",
    "[]",
    "{}",
    "[a, b]",
    "{a: 1}",
    "0",
    "-1",
    "1e309",
    "0x10",
    "NaN",
    "yes",
    "TRUE",
    "'quoted'",
    '"double"',
    "https://user:fuzz-url-token-123@host.example/x",
    "https://https://x",
    "file:///proc/self/mem",
    "../../../../etc/passwd",
    "~/x",
    "/proc/self/fd/0",
    "a".repeat(300),
    "é".repeat(64),
    "mara.example.com\nevil: true",
    "*alias",
    "&anchor value",
    "!!binary aGk=",
    "%TAG",
    "- item",
    "key: value",
    "\u0000",
    "\ud800",
    "ghcr.io/org/image:tag@sha256:" + "a".repeat(64),
];

/** How a fuzz run went. */
export interface FuzzSummary {
    readonly runs: number;
    readonly seed: number;
}

/**
 * Runs `body` on `runs` generated cases. A case that throws fails the run with its seed and number; FUZZ_SEED replays
 * a seed.
 */
export async function fuzz(opts: { runs: number; seed?: number }, body: (r: Rand, i: number) => Promise<void> | void): Promise<FuzzSummary> {
    const seed = Number(process.env.FUZZ_SEED ?? opts.seed ?? Date.now() % 2 ** 31);
    const r = new Rand(seed);
    let i = 0;
    for (; i < opts.runs; i++) {
        try {
            await body(r, i);
        } catch (e) {
            (e as Error).message = `fuzz case ${i} of seed ${seed} (replay with FUZZ_SEED=${seed}): ${(e as Error).message}`;
            throw e;
        }
    }
    return { runs: i, seed };
}
