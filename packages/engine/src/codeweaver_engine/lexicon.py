"""The vocabulary the guards read questions with: general programming words, not dataset rows.

Tables of names (languages, libraries, systems), words that flip a question (negations and
opposite pairs), words that ask for the same thing (synonyms), words that rarely decide an
answer (filler), the kinds of word a difference can be (operations, data kinds), and a light
reading of Korean: particles and verb endings are cut off and common terms map to the English
word, so every check reads Korean and English questions alike.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "single": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "hundred": "100",
    "thousand": "1000",
    "twice": "2",
    "half": "0.5",
    "first": "1st",
    "second": "2nd",
    "third": "3rd",
}
"""Number words read as the number they name, so "two decimals" agrees with "2 decimals"."""

LANGUAGES = {
    "python": "python",
    "py": "python",
    "python2": "python",
    "python3": "python",
    "java": "java",
    "javascript": "javascript",
    "js": "javascript",
    "node": "javascript",
    "nodejs": "javascript",
    "typescript": "typescript",
    "ts": "typescript",
    "c": "c",
    "c++": "c++",
    "cpp": "c++",
    "c#": "c#",
    "csharp": "c#",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "ruby": "ruby",
    "php": "php",
    "perl": "perl",
    "kotlin": "kotlin",
    "swift": "swift",
    "scala": "scala",
    "haskell": "haskell",
    "r": "r",
    "matlab": "matlab",
    "bash": "shell",
    "shell": "shell",
    "powershell": "powershell",
    "sql": "sql",
    "lua": "lua",
    "dart": "dart",
    "julia": "julia",
    "elixir": "elixir",
    "パイソン": "python",
    "ジャバ": "java",
}
"""Programming languages; a cached answer in one language never serves another."""

AMBIGUOUS_LANGUAGES = frozenset({"c", "r", "go", "py", "ts", "node", "js"})
"""Language names that are also ordinary words or variable names: counted only when capitalised
mid-sentence ("in C", "in Go")."""

LIBRARIES = _words(
    """
    numpy pandas scipy matplotlib pyplot seaborn plotly django flask fastapi sqlalchemy
    requests httpx aiohttp asyncio tkinter pyqt pyqt5 pyside qt wx wxpython pygame
    selenium beautifulsoup bs4 scrapy lxml tensorflow keras pytorch torch sklearn scikit
    jax opencv cv2 pil pillow boto3 celery redis mongodb pymongo mysql postgres postgresql
    sqlite sqlite3 pytest unittest regex re json yaml xml csv openpyxl xlrd xlwt urllib
    urllib2 subprocess jinja2 react angular angularjs vue jquery spring hibernate dotnet
    rails numba cython pydantic langchain langgraph networkx sympy nltk spacy gensim
    docker kubernetes git npm pip conda poetry uv webpack toml ini html css
    """
)
"""Libraries, tools and formats whose presence decides which answer applies."""

OPERATING_SYSTEMS = {
    "windows": "windows",
    "win32": "windows",
    "linux": "linux",
    "ubuntu": "linux",
    "debian": "linux",
    "centos": "linux",
    "macos": "macos",
    "osx": "macos",
    "mac": "macos",
    "ios": "ios",
    "android": "android",
    "unix": "unix",
    "freebsd": "freebsd",
}

NEGATIONS = _words(
    """
    not no without never disable disabled disabling exclude excluding except unless
    neither nor non cannot none ignore ignoring skip skipping omit omitting avoid prevent
    """
)
"""Words that flip what a question asks; "n't" contractions count too."""

MESSAGE_END = _words(
    """
    mean means meaning when whenever while during after because how why what fix fixing solve
    resolve
    """
)
"""Words where the question around an error message resumes ("...not iterable mean?")."""

HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
"""Request methods, read when written in capitals or right before "request"."""

OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (_words(a), _words(b))
    for a, b in (
        ("enable enabled enabling", "disable disabled disabling"),
        ("include including", "exclude excluding"),
        ("show display", "hide"),
        ("upper uppercase capital capitalize", "lower lowercase"),
        ("ascending ascend", "descending descend reverse reversed"),
        (
            "first beginning begin begins start starts starting leading prefix head startswith",
            "last end ends ending trailing suffix tail endswith",
        ),
        ("max maximum largest biggest highest greatest", "min minimum smallest lowest least"),
        ("greater larger bigger higher above", "less smaller fewer lower below"),
        ("encode encoding encoded", "decode decoding decoded"),
        ("import importing", "export exporting"),
        ("increase increment", "decrease decrement"),
        ("before", "after"),
        ("horizontal horizontally", "vertical vertically"),
        ("row rows", "column columns"),
        ("true", "false"),
        ("even", "odd"),
        ("serialize serialise dump dumps", "deserialize deserialise load loads"),
        ("zip", "unzip"),
        ("compress compressing", "decompress decompressing uncompress extract"),
        ("encrypt encrypting", "decrypt decrypting"),
        ("lock", "unlock"),
        ("sync synchronous synchronously", "async asynchronous asynchronously"),
        (
            "keep keeping kept retain retaining preserve preserving",
            "discard discarding lose losing",
        ),
        ("up upward upwards", "down downward downwards"),
        ("left leftmost ljust lstrip", "right rightmost rjust rstrip"),
        ("read reading reads", "write writing writes written"),
        ("add adding append appending insert inserting", "remove removing delete deleting"),
        ("push pushing", "pull pulling"),
        ("upload uploading", "download downloading"),
        ("open opening", "close closing"),
        ("start starting", "stop stopping"),
        ("install installing", "uninstall uninstalling"),
        ("next", "previous prev"),
        ("forward forwards", "backward backwards"),
        ("expand", "collapse"),
        ("mount", "unmount"),
        ("escape", "unescape"),
        ("quote", "unquote"),
        ("pack", "unpack"),
        ("local locally", "remote remotely"),
    )
)
"""Pairs of opposite words: one question with only the left, the other only the right."""

PARTICLE_OPPOSITES = (("in", "out"), ("on", "off"), ("up", "down"))
"""Particles that flip the verb before them: "zoom in" against "zoom out", "turn on" against
"turn off". Read only right after the same word, since "in" alone is everywhere."""

CONVERSION_VERBS = _words(
    """
    convert converting conversion converted turn turning transform transforming cast casting
    change changing parse parsing translate map encode decode copy copying move moving
    transfer transferring send sending migrate migrating port redirect switch switching
    """
)
"""Verbs that take a source and a target ("convert A to B", "copy from A to B")."""

DIRECTION_PIVOTS = frozenset({"to", "into", "2"})
REVERSED_PIVOTS = frozenset({"from"})
"""Words that split a conversion into what it starts from and what it produces."""

SYNONYMS = {
    "integer": "int",
    "integers": "int",
    "ints": "int",
    "str": "string",
    "strings": "string",
    "dict": "dictionary",
    "dicts": "dictionary",
    "dictionaries": "dictionary",
    "remove": "delete",
    "drop": "delete",
    "erase": "delete",
    "folder": "directory",
    "dir": "directory",
    "directories": "directory",
    "folders": "directory",
    "retrieve": "get",
    "obtain": "get",
    "fetch": "get",
    "find": "get",
    "extract": "get",
    "return": "get",
    "char": "character",
    "chars": "character",
    "characters": "character",
    "letter": "character",
    "letters": "character",
    "arr": "array",
    "arrays": "array",
    "create": "make",
    "generate": "make",
    "build": "make",
    "construct": "make",
    "merge": "combine",
    "concatenate": "combine",
    "concat": "combine",
    "join": "combine",
    "loop": "iterate",
    "traverse": "iterate",
    "invert": "reverse",
    "quit": "exit",
    "terminate": "exit",
    "abort": "exit",
    "kill": "exit",
    "df": "dataframe",
    "frame": "dataframe",
    "verify": "check",
    "test": "check",
    "determine": "check",
    "tell": "check",
    "transform": "convert",
    "turn": "convert",
    "cast": "convert",
    "change": "convert",
    "number": "num",
    "numbers": "num",
    "nums": "num",
    "numeric": "num",
    "digits": "digit",
    "filename": "file",
    "path": "file",
    "elements": "item",
    "element": "item",
    "entries": "item",
    "entry": "item",
    "items": "item",
    "keys": "key",
    "obj": "object",
    "objects": "object",
    "func": "function",
    "method": "function",
    "methods": "function",
    "functions": "function",
    "spaces": "whitespace",
    "space": "whitespace",
    "blank": "empty",
    "distinct": "unique",
    "randomly": "random",
    "amount": "count",
    "size": "length",
    "len": "length",
}
"""Words that ask for the same thing, folded to one form before comparing vocabularies."""

FILLER = _words(
    """
    a an the of in on at to for from by with into onto as is are be been was were do does
    did how what which who whom why when where can could should would will shall may might
    must i me my we our you your it its this that these those there here and or but if
    then than so such some any all each every other another same just only also very too
    more most much many way ways best good better simple simplest easy easiest elegant
    elegantly pythonic efficient efficiently fast fastest quick quickly proper properly
    correct correctly right possible using use used get gets getting want need trying try
    tried like please thanks hi hello python code program script value values variable
    variables given
    specific particular certain one new existing whole entire
    방법 어떻게 무엇 무슨 뜻 의미 있 있는지 있나요 하나요 인가요 뭔가요 되나요 나요 가요 까요
    """
)
"""Words that rarely decide an answer: left out when measuring shared vocabulary. `right` and
`one` are here as in "the right way" and "one-liner"; as a side or a number they are still read
by the opposite and number checks, and `value` as a kind of data by the swapped-word check."""

OPERATIONS = _words(
    """
    sort reverse shuffle split combine delete add append insert pop read write save load parse
    count sum average filter replace compare copy print round flatten group download upload
    install uninstall upgrade rename move encode decode serialize compress decompress hash
    encrypt decrypt validate truncate pad strip capitalize lowercase uppercase escape unescape
    """
)
"""What a question asks to do. Two questions about the same object that ask to do different
things ("sort" or "parse" a query result) have different answers, however alike they read."""

DATA_KINDS = _words(
    """
    list dict dictionary string str tuple set array dataframe df series matrix int integer
    float decimal number bool boolean byte bytes char character object class function
    module file directory folder path column row key value index json csv xml yaml date
    datetime time timestamp url
    """
)
"""Words naming a kind of data or thing. A cached question that names one the query does not is
likely about something else ("a list" against "a list of tuples"), a difference the hit model
weighs apart from other words."""

KOREAN_PARTICLES = tuple(
    sorted(
        _words(
            """
            에서는 에서도 으로는 으로 에서 에게 까지 부터 처럼 보다 이나 이랑 하고 에는 로는
            은 는 이 가 을 를 의 에 로 와 과 도 만 나 랑
            """
        ),
        key=len,
        reverse=True,
    )
)
"""Particles that attach to a Korean word ("파일을", "리스트에서"); cut off before reading it."""

KOREAN_ENDINGS = tuple(
    sorted(
        _words(
            """
            하려면 하는지 하는데 합니다 하세요 하는 하기 하고 하되 하면 하여 해서 해야 했을 했는데
            되는 되지 되어 된 하 한 할 해 했 려면 는지 나요 가요 까요 세요 인가요
            """
        ),
        key=len,
        reverse=True,
    )
)
"""Verb endings cut off after the particle ("삭제하는" reads as "삭제")."""

KOREAN_PHRASES = {
    "첫 번째": "첫번째",
    "맨 앞": "맨앞",
    "맨 뒤": "맨뒤",
    "압축 해제": "압축해제",
    "압축을 풀": "압축해제",
    "압축을 푸": "압축해제",
    "압축 풀": "압축해제",
    "압축 푸": "압축해제",
    "가장 큰": "최대",
    "가장 작은": "최소",
    "변경 사항": "변경사항",
    "무슨 뜻": "뜻",
}
"""Korean phrases read as one word before the question is split into words."""

KOREAN_TERMS = {
    "파이썬": "python",
    "자바": "java",
    "자바스크립트": "javascript",
    "판다스": "pandas",
    "넘파이": "numpy",
    "리스트": "list",
    "목록": "list",
    "배열": "array",
    "딕셔너리": "dictionary",
    "사전": "dictionary",
    "문자열": "string",
    "튜플": "tuple",
    "세트": "set",
    "집합": "set",
    "파일": "file",
    "폴더": "directory",
    "디렉토리": "directory",
    "디렉터리": "directory",
    "키": "key",
    "값": "value",
    "요소": "item",
    "항목": "item",
    "원소": "item",
    "열": "column",
    "컬럼": "column",
    "행": "row",
    "이름": "name",
    "개수": "count",
    "길이": "length",
    "크기": "length",
    "합계": "sum",
    "합": "sum",
    "구하": "get",
    "데이터프레임": "dataframe",
    "정렬": "sort",
    "삭제": "delete",
    "제거": "delete",
    "지우": "delete",
    "추가": "add",
    "변환": "convert",
    "바꾸": "convert",
    "확인": "check",
    "찾": "get",
    "찾기": "get",
    "가져오": "get",
    "얻": "get",
    "읽": "read",
    "읽기": "read",
    "쓰": "write",
    "쓰기": "write",
    "저장": "save",
    "인코딩": "encode",
    "디코딩": "decode",
    "첫번째": "first",
    "처음": "first",
    "맨앞": "first",
    "마지막": "last",
    "맨뒤": "last",
    "최대": "max",
    "최댓값": "max",
    "최대값": "max",
    "최소": "min",
    "최솟값": "min",
    "최소값": "min",
    "위": "up",
    "아래": "down",
    "왼쪽": "left",
    "오른쪽": "right",
    "오름차순": "ascending",
    "내림차순": "descending",
    "대문자": "uppercase",
    "소문자": "lowercase",
    "유지": "keep",
    "보존": "keep",
    "버리": "discard",
    "폐기": "discard",
    "취소": "undo",
    "되돌리": "undo",
    "업로드": "upload",
    "다운로드": "download",
    "압축": "compress",
    "압축해제": "decompress",
    "시작": "start",
    "중지": "stop",
    "멈추": "stop",
    "열기": "open",
    "닫": "close",
    "닫기": "close",
    "설치": "install",
    "포함": "include",
    "제외": "exclude",
    "활성화": "enable",
    "비활성화": "disable",
    "숨기": "hide",
    "표시": "show",
    "증가": "increase",
    "감소": "decrease",
    "중복": "duplicate",
    "빈": "empty",
    "공백": "whitespace",
    "쉼표": "comma",
    "나누": "split",
    "분할": "split",
    "합치": "combine",
    "병합": "combine",
    "뒤집": "reverse",
    "반복": "iterate",
    "출력": "print",
    "현재": "current",
    "날짜": "date",
    "시간": "time",
    "확장자": "extension",
    "커밋": "commit",
    "브랜치": "branch",
    "요청": "request",
    "보내": "send",
    "전송": "send",
    "스크롤": "scroll",
    "함수": "function",
    "클래스": "class",
    "객체": "object",
    "모듈": "module",
    "오류": "error",
    "에러": "error",
    "예외": "exception",
    "고치": "fix",
    "없이": "without",
    "않": "not",
    "아닌": "not",
    "말고": "not",
}
"""Korean words (after particles and endings are cut) read as the English word they mean."""
