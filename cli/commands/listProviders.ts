/** `mara list-providers`: the supported infrastructure types and what each creates. */
// The module, not the contracts barrel: list-providers needs this list only (mara start-up, docs/cli.md).
import { INFRA_TYPES } from "../../contracts/cluster";
import type { CommandContext } from "../kernel/command";
import { EXIT, line } from "../kernel/io";
import { PROVIDERS } from "../init/providers";

/** Prints one block per infra type: its value, MARA's spelling, what it creates and its credentials. */
export async function listProviders(ctx: CommandContext): Promise<number> {
    const out = ctx.io.stdout;
    line(out, "Infrastructure types (set kubernetes:infra_type or mara:infraType; MARA's spelling works too):");
    for (const type of INFRA_TYPES) {
        const p = PROVIDERS[type];
        line(out);
        line(out, `${type.padEnd(13)}MARA: ${p.maraName.padEnd(12)}${p.title}`);
        line(out, `  creates:     ${p.creates}`);
        line(out, `  credentials: ${p.credentials}`);
    }
    return EXIT.ok;
}
