import { microTimeNow, type Lease, type LeaseSpec } from '@kevents/api';
import { isNotFound } from '../errors.js';
import type { ResourceClient } from '../client/resource-client.js';
import type { RuntimeMetrics } from '../metrics/metrics.js';

/** client-go's (and controller-runtime's) defaults. */
export const leaderElectionDefaults = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
} as const;

/** client-go's `JitterFactor` for the acquire and renew loops. */
const jitterFactor = 1.2;

/** Options of a {@link LeaderElector}. */
export interface LeaderElectorOptions {
  /**
   * A client for `coordination.k8s.io/v1` leases (or the same resource under another group, such as
   * a kevents-apiserver's `coordination.<group-domain>`: new leases take the client's group version);
   * give it a RestClient of its own (its own connection pool).
   */
  readonly leases: ResourceClient<Lease>;
  readonly namespace: string;
  readonly name: string;
  /** This candidate's identity, unique among candidates (hostname plus a random suffix). */
  readonly identity: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
  /** Give the lease up (holder "", duration 1 s) when stopped while leading (default true). */
  readonly releaseOnCancel?: boolean;
  readonly metrics?: RuntimeMetrics;
  /** Called with every failed lease request (for logging). */
  readonly onError?: (err: unknown) => void;
  /** Called when another identity is seen holding the lease. */
  readonly onNewLeader?: (identity: string) => void;
}

/**
 * Leader election on a Lease with client-go's `LeaderElector` semantics. A candidate takes the
 * lease when it is free, or when the record it last observed has not changed for
 * `leaseDuration` by its own clock (no clock comparison between candidates). The leader renews
 * every `retryPeriod`; if it cannot renew for `renewDeadline` it stops leading. Every write is a
 * PUT with the observed resourceVersion, so two candidates cannot both win.
 */
export class LeaderElector {
  private readonly o: Required<Omit<LeaderElectorOptions, 'metrics' | 'onError' | 'onNewLeader'>> &
    LeaderElectorOptions;
  private observed: Lease | undefined;
  private observedSpec = '';
  private observedAt = 0;
  private leading = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private lastReportedLeader = '';

  constructor(options: LeaderElectorOptions) {
    this.o = {
      leaseDurationMs: leaderElectionDefaults.leaseDurationMs,
      renewDeadlineMs: leaderElectionDefaults.renewDeadlineMs,
      retryPeriodMs: leaderElectionDefaults.retryPeriodMs,
      releaseOnCancel: true,
      ...options,
    };
    if (this.o.leaseDurationMs <= this.o.renewDeadlineMs)
      throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.o.renewDeadlineMs <= jitterFactor * this.o.retryPeriodMs)
      throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
  }

  get identity(): string {
    return this.o.identity;
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** The holder last observed on the lease ('' when none). */
  get observedLeader(): string {
    return this.observed?.spec.holderIdentity ?? '';
  }

  /** Resolves true once this candidate leads, false when stopped first. */
  async acquire(): Promise<boolean> {
    while (!this.stopped) {
      if (await this.tryAcquireOrRenew()) {
        this.setLeading(true);
        return true;
      }
      await this.sleep(this.o.retryPeriodMs * (1 + Math.random() * jitterFactor));
    }
    return false;
  }

  /**
   * Renews until it fails for `renewDeadline` (resolves 'lost') or {@link stop} is called
   * (resolves 'stopped', after releasing the lease when configured).
   */
  async renewLoop(): Promise<'lost' | 'stopped'> {
    while (!this.stopped) {
      const deadline = performance.now() + this.o.renewDeadlineMs;
      let renewed = false;
      while (!this.stopped && performance.now() < deadline) {
        if (await this.tryAcquireOrRenew()) {
          renewed = true;
          break;
        }
        if (this.stopped) break;
        await this.sleep(Math.min(this.o.retryPeriodMs, Math.max(0, deadline - performance.now())));
      }
      if (this.stopped) break;
      if (!renewed) {
        this.setLeading(false);
        return 'lost';
      }
      await this.sleep(this.o.retryPeriodMs);
    }
    if (this.o.releaseOnCancel) await this.release();
    this.setLeading(false);
    return 'stopped';
  }

  /** Ends acquire/renew loops at once. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  /** Gives the lease up if this candidate holds it (client-go `release`). */
  async release(): Promise<boolean> {
    if (!this.leading || !this.observed) return true;
    const now = microTimeNow();
    const lease: Lease = {
      ...this.observed,
      spec: {
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: this.observed.spec.leaseTransitions ?? 0,
      },
    };
    try {
      this.observe(await this.o.leases.update(lease));
      this.setLeading(false);
      return true;
    } catch (err) {
      this.o.onError?.(err);
      return false;
    }
  }

  private setLeading(v: boolean): void {
    this.leading = v;
    this.o.metrics?.leaderStatus.set({ name: this.o.name }, v ? 1 : 0);
  }

  private observe(lease: Lease): void {
    const spec = JSON.stringify(lease.spec ?? {});
    if (spec !== this.observedSpec) {
      this.observedSpec = spec;
      this.observedAt = performance.now();
    }
    this.observed = lease;
    const holder = lease.spec?.holderIdentity ?? '';
    if (holder !== this.lastReportedLeader) {
      this.lastReportedLeader = holder;
      if (holder && holder !== this.o.identity) this.o.onNewLeader?.(holder);
    }
  }

  /** One attempt (client-go `tryAcquireOrRenew`). */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = microTimeNow();
    const desired: LeaseSpec = {
      holderIdentity: this.o.identity,
      leaseDurationSeconds: Math.round(this.o.leaseDurationMs / 1000) || 1,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };
    let current: Lease;
    try {
      current = await this.o.leases.get(this.o.namespace, this.o.name);
    } catch (err) {
      if (!isNotFound(err)) {
        this.o.onError?.(err);
        return false;
      }
      try {
        this.observe(
          await this.o.leases.create({
            apiVersion: `${this.o.leases.ref.group}/${this.o.leases.ref.version}`,
            kind: 'Lease',
            metadata: { name: this.o.name, namespace: this.o.namespace },
            spec: desired,
          }),
        );
        return true;
      } catch (e) {
        this.o.onError?.(e);
        return false;
      }
    }
    this.observe(current);
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const durationMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    if (holder !== '' && holder !== this.o.identity && this.observedAt + durationMs > performance.now()) return false;
    if (holder === this.o.identity) {
      desired.acquireTime = spec.acquireTime ?? now;
      desired.leaseTransitions = spec.leaseTransitions ?? 0;
    } else {
      desired.leaseTransitions = (spec.leaseTransitions ?? 0) + 1;
    }
    try {
      this.observe(await this.o.leases.update({ ...current, spec: desired }));
      return true;
    } catch (err) {
      this.o.onError?.(err);
      return false;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    });
  }
}
