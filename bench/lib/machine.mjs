// The machine a run measured: cpu model, cores, memory, node version, OS.
// Printed at the top of every run so figures are never read without their context.
import os from 'node:os'

export function machineInfo() {
  const cpus = os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    load: os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' '),
  }
}

export function formatMachine(info) {
  return [
    `cpu:    ${info.cpu} (${info.cores} cores)`,
    `memory: ${info.memoryGiB} GiB`,
    `node:   ${info.node}`,
    `os:     ${info.os}`,
    `load:   ${info.load} (1, 5, 15 min; other work on the machine skews every figure)`,
  ].join('\n')
}
