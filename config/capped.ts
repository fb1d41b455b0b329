/**
 * Findings of one kind about many keys (20,000 unknown keys in a generated stack file) are listed one by one up to a
 * limit, and the rest counted in one more finding that names a few: the output stays readable, and the costly parts
 * of a finding (a suggestion searched for among every known key) are paid only for the ones shown.
 */

/** How many findings of one kind are listed one by one. */
export const LISTED_ONE_BY_ONE = 10;

/** How many of the rest a summary names. */
const NAMED_IN_SUMMARY = 5;

/**
 * Calls `one` for each of the first {@link LISTED_ONE_BY_ONE} items and, when there are more, `rest` once with the
 * number left and a few of their names.
 */
export function listCapped<T>(items: readonly T[], nameOf: (item: T) => string, one: (item: T) => void, rest: (count: number, some: string) => void): void {
    items.slice(0, LISTED_ONE_BY_ONE).forEach(one);
    const left = items.slice(LISTED_ONE_BY_ONE);
    if (left.length === 0) return;
    const named = left.slice(0, NAMED_IN_SUMMARY).map(nameOf).join(", ");
    rest(left.length, left.length > NAMED_IN_SUMMARY ? `${named}, …` : named);
}
