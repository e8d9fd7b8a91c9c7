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

// buzz vibrates briefly to say "your turn".
export function buzz() {
  try {
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
  } catch {
    // ignore
  }
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
