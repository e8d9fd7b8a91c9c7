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

// wakeCard shows text large over the page for a few seconds, or until tapped:
// the phone's way of tapping its holder on the shoulder. It lives outside the
// screen's own elements, so that the screen's redraws leave it alone.
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
