class LRUCache:
    def __init__(self, capacity: int):
        self.items = {}

    def get(self, key: int) -> int:
        return self.items[key]

    def put(self, key: int, value: int) -> None:
        self.items[key] = value
