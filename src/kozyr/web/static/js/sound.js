// Short tones made by the page itself (WebAudio): one for your turn, a rising pair for a
// mark. Off unless the player turns them on; the choice is kept in localStorage.

const KEY = "kozyr.sound";
let context = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* storage may be blocked: the choice lasts this page only */
  }
  if (on) audio(); // created inside the click, as browsers require
}

function audio() {
  if (!context) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    context = new Ctx();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function tone(freq, start, length) {
  const ctx = audio();
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "sine";
  osc.frequency.value = freq;
  const at = ctx.currentTime + start;
  // A soft attack and decay: no click at either end.
  gain.gain.setValueAtTime(0, at);
  gain.gain.linearRampToValueAtTime(0.15, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** kind: "turn" or "mark". Silent when sound is off. Returns whether a sound was made. */
export function play(kind) {
  if (!soundOn()) return false;
  if (kind === "mark") {
    tone(523, 0, 0.18);
    tone(784, 0.14, 0.3);
  } else tone(660, 0, 0.16);
  window.__kozyrSounds = (window.__kozyrSounds || 0) + 1; // for the browser tests
  return true;
}
