/** The words filled catalogs are made of (bench/fill-catalog.ts), and benchmark searches with them. */
export const SOURCES = ['laser', 'zap', 'coin', 'door', 'rain', 'wind', 'wave', 'click', 'beep', 'whoosh', 'impact', 'explosion',
  'footsteps', 'hum', 'alarm', 'chord', 'bass', 'drum', 'kick', 'snare', 'hihat', 'cymbal', 'glass', 'metal', 'wood', 'water',
  'fire', 'engine', 'car', 'truck', 'train', 'plane', 'helicopter', 'boat', 'bird', 'dog', 'cat', 'horse', 'cow', 'crowd',
  'applause', 'laugh', 'scream', 'breath', 'heartbeat', 'clock', 'bell', 'gong', 'chime', 'siren', 'horn', 'whistle', 'phone',
  'keyboard', 'typing', 'mouse', 'button', 'switch', 'lever', 'gear', 'motor', 'fan', 'drill', 'saw', 'hammer', 'punch', 'slap',
  'sword', 'gun', 'shot', 'reload', 'arrow', 'bow', 'magic', 'spell', 'portal', 'robot', 'alien', 'monster', 'zombie', 'ghost',
  'thunder', 'storm', 'ocean', 'river', 'stream', 'forest', 'jungle', 'desert', 'cave', 'city', 'street', 'traffic', 'market',
  'cafe', 'office', 'factory', 'hospital', 'school', 'church', 'stadium', 'piano', 'guitar', 'violin', 'cello', 'flute', 'synth',
  'pad', 'arp', 'lead', 'pluck', 'riser', 'drop', 'sweep', 'noise', 'static', 'glitch', 'stinger', 'jingle', 'fanfare', 'loop'];
export const QUALITIES = ['short', 'long', 'soft', 'hard', 'bright', 'dark', 'deep', 'high', 'low', 'quick', 'slow', 'warm',
  'cold', 'heavy', 'light', 'distant', 'close', 'wet', 'dry', 'metallic', 'wooden', 'hollow', 'crisp', 'muffled', 'punchy',
  'airy', 'gritty', 'smooth', 'rough', 'clean', 'dirty', 'tiny', 'huge', 'epic', 'subtle', 'retro', 'modern', 'vintage',
  'cinematic', 'cartoon', 'realistic', 'eerie', 'happy', 'sad', 'tense', 'calm', 'chill', 'dreamy', 'aggressive', 'playful'];
export const ACTIONS = ['hit', 'crash', 'slam', 'creak', 'rattle', 'buzz', 'ring', 'pop', 'snap', 'crack', 'splash', 'drip',
  'rumble', 'roar', 'hiss', 'whine', 'chirp', 'bark', 'swish', 'thud', 'clank', 'squeak', 'tick', 'tap', 'knock', 'scrape',
  'rustle', 'flutter', 'burst', 'fade', 'rise', 'fall', 'open', 'close', 'start', 'stop', 'pass', 'loop'];
export const CONTEXTS = ['game', 'ui', 'menu', 'trailer', 'podcast', 'film', 'nature', 'urban', 'indoor', 'outdoor', 'night',
  'morning', 'sci-fi', 'fantasy', 'horror', 'western', 'medieval', 'space', 'underwater', 'industrial', 'kitchen', 'garden',
  'lofi', 'ambient', 'music', 'foley', 'transition', 'notification', 'success', 'failure', 'reward', 'pickup', 'damage', 'jump'];
