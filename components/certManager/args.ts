/**
 * cert-manager's mapping from its validated settings onto the Platform's `certificates` arguments: the one place
 * where its `mara:*` settings become {@link CertManagerArgs}. Called by program/platformArgs.ts.
 */
import type { CertManagerArgs } from "./component";
import type { CertManagerSettings } from "./settings";

/** The chart, and the ACME issuer when an account email is set. */
export function certManagerArgsFromSettings(s: CertManagerSettings): Pick<CertManagerArgs, "chart" | "acme"> {
    return { chart: s.chart, acme: s.acmeEmail ? { email: s.acmeEmail, server: s.acmeServer } : undefined };
}
