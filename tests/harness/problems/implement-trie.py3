class Trie:
    def __init__(self):
        self.words = SortedList()

    def insert(self, word: str) -> None:
        if word not in self.words:
            self.words.add(word)

    def search(self, word: str) -> bool:
        return word in self.words

    def startsWith(self, prefix: str) -> bool:
        i = self.words.bisect_left(prefix)
        return i < len(self.words) and self.words[i].startswith(prefix)
