// SPDX-License-Identifier: Apache-2.0
// The differential tests' random numbers: mulberry32 (small, seedable,
// replayable), with the helpers both tests use.
'use strict';

function makeRng(seed) {
  let state = seed || 1;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    rand,
    pick: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)), // inclusive
    choice: (a) => a[Math.floor(rand() * a.length)],
    chance: (p) => rand() < p,
  };
}

module.exports = { makeRng };
