/**
 * MetalLB on the Platform: its arguments (`PlatformArgs.metalLb`), its member and how it is created, before the
 * ingress controller whose Service takes an address from its pool.
 */
import { DEFAULTS } from "../../contracts";
import type { PlatformArgs, PlatformUnit } from "../platformUnit";
import { MetalLb, MetalLbArgs } from "./component";

declare module "../platformUnit" {
    interface PlatformArgs {
        /**
         * Install MetalLB with this pool, for clusters without a load balancer implementation; the ingress controller
         * waits for it, so its Service gets an address from the pool. Default: not installed.
         */
        metalLb?: MetalLbArgs;
        /**
         * @deprecated Use {@link PlatformArgs.metalLb}, the same arguments under the add-on's one name. Still read: where
         * both are given, `metalLb`'s members win.
         */
        metallb?: MetalLbArgs;
    }
    interface PlatformAddOns {
        /** MetalLB, when {@link PlatformArgs.metalLb} asked for it. */
        readonly metalLb?: MetalLb;
        /** @deprecated Use {@link Platform.metalLb}, the same component under the add-on's one name. */
        readonly metallb?: MetalLb;
    }
}

/** MetalLB's arguments under their name and their deprecated one (`metallb`), the new name winning; undefined: not installed. */
function metalLbArgs(args: Pick<PlatformArgs, "metalLb" | "metallb">): MetalLbArgs | undefined {
    const { metallb, metalLb } = args;
    return metallb || metalLb ? ({ ...metallb, ...metalLb } as MetalLbArgs) : undefined;
}

/** MetalLB on the Platform, where its arguments ask for it. */
export const METALLB_UNIT: PlatformUnit = {
    create({ name, args, platform }) {
        const metalLbOwn = metalLbArgs(args);
        if (!metalLbOwn) return {};
        // Its child name is the one deployed stacks hold, so it stays `-metallb`.
        const metalLb = new MetalLb(`${name}-metallb`, metalLbOwn, { parent: platform });
        return { metalLb, metallb: metalLb };
    },
    namespaces(args) {
        const metalLb = metalLbArgs(args);
        return metalLb ? [metalLb.namespace ?? DEFAULTS.metalLb.namespace] : [];
    },
};
