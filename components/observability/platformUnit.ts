/** The OpenTelemetry operator and collector on the Platform: its arguments (`PlatformArgs.observability`), its member and how it is created. */
import { DEFAULTS } from "../../contracts";
import type { PlatformUnit } from "../platformUnit";
import { Observability, ObservabilityArgs } from "./component";

/** Observability: the OpenTelemetry operator's chart and the configuration of the collector that receives the traces. */
export type PlatformObservabilityArgs = Pick<ObservabilityArgs, "chart" | "collectorVariant">;

/** @deprecated Use {@link PlatformObservabilityArgs}, the same type under the add-on's one name. */
export type PlatformTracingArgs = PlatformObservabilityArgs;

declare module "../platformUnit" {
    interface PlatformArgs {
        /** The OpenTelemetry operator and collector. */
        observability?: PlatformObservabilityArgs;
        /**
         * @deprecated Use {@link PlatformArgs.observability}, the same arguments under the add-on's one name. Still read:
         * where both are given, `observability`'s members win.
         */
        tracing?: PlatformObservabilityArgs;
    }
    interface PlatformAddOns {
        /** OpenTelemetry operator and collector. */
        readonly observability: Observability;
    }
}

/** The OpenTelemetry operator and collector on the Platform, created after cert-manager. */
export const OBSERVABILITY_UNIT: PlatformUnit = {
    // The operator's webhook certificate comes from cert-manager.
    create: ({ name, args, child, created }) => ({
        observability: new Observability(`${name}-observability`, { ...args.tracing, ...args.observability }, { ...child("observability"), dependsOn: created.certManager ? [created.certManager] : [] }),
    }),
    namespaces: () => [DEFAULTS.observability.namespace],
};
