/** cert-manager on the Platform: its arguments (`PlatformArgs.certManager`), its member and how it is created. */
import { DEFAULTS } from "../../contracts";
import type { PlatformUnit } from "../platformUnit";
import { CertManager, CertManagerArgs } from "./component";

/** cert-manager: its chart, and the ACME issuer to add beside the self-signed one. */
export type PlatformCertManagerArgs = Pick<CertManagerArgs, "chart" | "acme">;

/** @deprecated Use {@link PlatformCertManagerArgs}, the same type under the add-on's one name. */
export type PlatformCertificatesArgs = PlatformCertManagerArgs;

declare module "../platformUnit" {
    interface PlatformArgs {
        /** cert-manager and its ClusterIssuers. Default: the self-signed issuer only. */
        certManager?: PlatformCertManagerArgs;
        /**
         * @deprecated Use {@link PlatformArgs.certManager}, the same arguments under the add-on's one name. Still read:
         * where both are given, `certManager`'s members win.
         */
        certificates?: PlatformCertManagerArgs;
    }
    interface PlatformAddOns {
        /** cert-manager and its ClusterIssuers. */
        readonly certManager: CertManager;
    }
}

/** cert-manager on the Platform. */
export const CERT_MANAGER_UNIT: PlatformUnit = {
    create: ({ name, args, child }) => ({ certManager: new CertManager(`${name}-cert-manager`, { ...args.certificates, ...args.certManager }, child("cert-manager")) }),
    namespaces: () => [DEFAULTS.certManager.namespace],
};
