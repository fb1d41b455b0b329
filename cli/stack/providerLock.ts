/**
 * MARA's provider lock: a stack that has been used with one infrastructure type is never switched to
 * another, because the next `up` would replace the whole cluster. `--force` overrides it.
 */
import { INFRA_TYPES, InfraType, KEYS } from "../../config";
import { CliError, EXIT } from "../kernel/io";

const asInfraType = (v: string): InfraType | undefined => (INFRA_TYPES as readonly string[]).includes(v) ? (v as InfraType) : undefined;

/** The infra type a stack's config names (`mara:infraType`, else MARA's `kubernetes:infra_type`). */
export function configuredInfraType(values: Readonly<Record<string, string>>): InfraType | undefined {
    const raw = values[KEYS.infraType.key] ?? KEYS.infraType.legacy.map((l) => values[l.key]).find((v) => v !== undefined);
    if (raw === undefined) return undefined;
    const parsed = KEYS.infraType.type.parse(raw);
    return parsed.ok ? asInfraType(parsed.value) : undefined;
}

/**
 * Parses an infra type given on the command line, in any accepted spelling (aws, AWS, DO, LKE, ...).
 *
 * @throws CliError (usage) listing the accepted values.
 */
export function parseInfraType(value: string): InfraType {
    const parsed = KEYS.infraType.type.parse(value);
    const type = parsed.ok ? asInfraType(parsed.value) : undefined;
    if (!type) throw new CliError(`unknown provider "${value}": use one of ${INFRA_TYPES.join(", ")} (MARA's AWS, DO and LKE work too)`, EXIT.usage);
    return type;
}

/** What is known about the stack's infra type. */
export interface LockState {
    /** From the stack's config. */
    readonly configured?: InfraType;
    /** From the `infra_type` output of its last deployment. */
    readonly deployed?: InfraType;
}

/**
 * Refuses a run whose infra type differs from the one the stack has been used with.
 *
 * @param requested - the type asked for on the command line, else the configured one.
 * @throws CliError (pre-flight) with MARA's explanation, unless `force`.
 */
export function checkProviderLock(stack: string, state: LockState, requested: InfraType | undefined, force: boolean): void {
    const want = requested ?? state.configured;
    const conflicts = [
        state.configured && want !== state.configured ? `its config says ${state.configured}` : undefined,
        state.deployed && want !== state.deployed ? `it was deployed with ${state.deployed}` : undefined,
    ].filter((c): c is string => c !== undefined);
    if (want === undefined || conflicts.length === 0 || force) return;
    const used = state.deployed ?? state.configured;
    throw new CliError(
        `stack "${stack}" has already been used with the provider [${used}] (${conflicts.join(", ")}), so it cannot be run with the provider [${want}]. ` +
            `Destroy its resources (npx mara destroy --stack ${stack}) and remove kubernetes:infra_type / mara:infraType from its config, ` +
            `or use a new stack; --force skips this check.`,
        EXIT.preflight,
    );
}
