// Browser features that are nice to have: the Screen Wake Lock, vibration and
// speech. Each one does nothing where the browser lacks it.

let lock = null;
let wanted = false;

async function acquire() {
  if (!wanted || lock || document.visibilityState !== 'visible') return;
  try {
    if ('wakeLock' in navigator) {
      lock = await navigator.wakeLock.request('screen');
      lock.addEventListener('release', () => {
        lock = null;
      });
    }
  } catch {
    lock = null; // not allowed (insecure context, battery saver): the game goes on
  }
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') acquire();
});

// keepAwake asks the screen to stay on while on is true.
export function keepAwake(on) {
  wanted = !!on;
  if (wanted) acquire();
  else if (lock) {
    lock.release().catch(() => {});
    lock = null;
  }
}

// buzz vibrates briefly to say "your turn". Browsers let a page vibrate only
// once its user has tapped it, so it waits for that rather than be refused.
export function buzz() {
  try {
    const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && active) navigator.vibrate([120, 60, 120]);
  } catch {
    // ignore
  }
}

const WAKE_MS = 4000;
let wakeTimer = null;

// wakeCard shows text as a banner across the top of the phone, over its top
// bar, for a few seconds, or until tapped: the phone's way of tapping its
// holder on the shoulder, which leaves the page's buttons in view and free to
// tap. It lives outside the screen's own elements, so that the screen's
// redraws leave it alone.
export function wakeCard(text) {
  let el = document.getElementById('wake-card');
  if (!el) {
    el = document.createElement('div');
    el.id = 'wake-card';
    el.className = 'wake-card';
    el.setAttribute('role', 'alert');
    el.addEventListener('click', () => { el.hidden = true; });
    document.body.appendChild(el);
  }
  el.textContent = text;
  el.hidden = false;
  clearTimeout(wakeTimer);
  wakeTimer = setTimeout(() => { el.hidden = true; }, WAKE_MS);
}

const VOICE_LANGS = { en: 'en-US', ru: 'ru-RU', uk: 'uk-UA', ro: 'ro-RO' };

export function canSpeak() {
  return 'speechSynthesis' in window;
}

// say reads sentences aloud in lang, one after another.
export function say(lang, sentences) {
  if (!canSpeak() || !sentences.length) return;
  const tag = VOICE_LANGS[lang] || 'en-US';
  const voices = speechSynthesis.getVoices();
  const voice = voices.find((v) => v.lang === tag) || voices.find((v) => v.lang && v.lang.toLowerCase().startsWith(lang));
  for (const s of sentences) {
    const u = new SpeechSynthesisUtterance(s);
    u.lang = tag;
    if (voice) u.voice = voice;
    u.rate = 0.95;
    speechSynthesis.speak(u);
  }
}

// hush stops whatever the narrator is saying and has queued.
export function hush() {
  if (canSpeak()) speechSynthesis.cancel();
}

// The time signals are made on the spot with WebAudio: no sound files. A
// browser lets a page sound only after a tap or a key on it, so the context is
// made, or woken, by unlockAudio on the first one.
let audio = null;

// unlockAudio makes the page's audio context, or resumes it, from a user gesture.
export function unlockAudio() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

// CUES are the signals: 'soon' two short high beeps (ten seconds left), 'end' one
// longer low tone (time is up).
const CUES = {
  soon: [[880, 0, 0.12], [880, 0.2, 0.12]],
  end: [[440, 0, 0.5]],
};

// cue plays a time signal; it does nothing until the page has been tapped.
export function cue(kind) {
  const notes = CUES[kind];
  if (!audio || !notes || audio.state !== 'running') return;
  const start = audio.currentTime + 0.02;
  for (const [freq, at, len] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    // A short ramp in and out, so the tone starts and stops without a click.
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.3, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(start + at);
    osc.stop(start + at + len + 0.05);
  }
}
