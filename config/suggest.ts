/** "Did you mean …?" for mistyped config keys. */

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        for (let j = 1; j <= b.length; j++) {
            cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
        prev = cur;
    }
    return prev[b.length]!;
}

/**
 * The candidate closest to `input`, if it is close enough to be a plausible typo: at most a third of
 * the input's length away, compared case-insensitively.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const c of candidates) {
        const d = editDistance(input.toLowerCase(), c.toLowerCase());
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    return bestDistance <= Math.max(2, Math.floor(input.length / 3)) ? best : undefined;
}
