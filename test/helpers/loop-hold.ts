/**
 * How long this process's event loop was held while `work` ran (ms), and when: a timer ticks every
 * few ms, and a gap between ticks (or from the last tick to the end) is a turn that long, counted
 * only as far as this process also used CPU during it: on a shared machine a process descheduled
 * for 50 ms sees its loop "held" without any request holding it. (An event-loop delay histogram
 * records a turn only at its next tick, which may come after `work` is over.) `long` lists the
 * turns longer than `longMs`. The test servers run in the test's process, so this is theirs too.
 */
export async function loopHeld(work: () => Promise<unknown>, longMs = 50): Promise<{ ms: number; long: [number, number][] }> {
  const long: [number, number][] = []
  let worst = 0
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  const tick = () => {
    const now = performance.now()
    const cpu = process.cpuUsage(lastCpu)
    // A gap counts for as long as this process also ran during it.
    const gap = Math.min(now - last, (cpu.user + cpu.system) / 1000)
    worst = Math.max(worst, gap)
    if (gap > longMs) long.push([last, now])
    last = now
    lastCpu = process.cpuUsage()
  }
  const timer = setInterval(tick, 5)
  try {
    await work()
  } finally {
    clearInterval(timer)
    tick()
  }
  return { ms: worst, long }
}

/** The least of `tries` measures of `work`'s hold: what it costs, less the host's noise. */
export async function leastLoopHeld(work: () => Promise<unknown>, tries = 3): Promise<number> {
  let least = Infinity
  for (let i = 0; i < tries; i++) least = Math.min(least, (await loopHeld(work)).ms)
  return least
}
